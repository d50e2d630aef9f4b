import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { Avatar } from './avatar.tsx';

const stored = '/storage/v1/object/public/avatars/0192f5b0-1c2d-7e3f-8a4b-5c6d7e8f9a0b/avatar.webp';

test("a picture on Pacta's storage or the device's copy is shown; an outside or inline address never is", () => {
  expect(renderToStaticMarkup(<Avatar name="Maya Chen" url={stored} />)).toContain(`src="${stored}"`);
  expect(
    renderToStaticMarkup(<Avatar name="Maya Chen" url={stored} localCopy="blob:http://127.0.0.1/0192" />),
  ).toContain('src="blob:http://127.0.0.1/0192"');
  expect(renderToStaticMarkup(<Avatar name="Maya Chen" url="data:image/svg+xml,%3Csvg%3E%3C/svg%3E" />)).not.toContain(
    '<img',
  );
  const outside = renderToStaticMarkup(<Avatar name="Maya Chen" url="https://tracker.example/pixel.png" />);
  expect(outside).not.toContain('<img');
  expect(outside).toContain('>MC<');
  expect(renderToStaticMarkup(<Avatar name="Canvas &amp; Co." url={null} />)).toContain('>CC<');
  expect(renderToStaticMarkup(<Avatar name="Lumen" url="//cdn.example/a.png" />)).toContain('>L<');
});
