import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { Avatar } from './avatar.tsx';

test('a generated or local picture is shown; an outside address never is (initials instead)', () => {
  expect(renderToStaticMarkup(<Avatar name="Maya Chen" url="data:image/svg+xml,%3Csvg%3E%3C/svg%3E" />)).toContain(
    '<img',
  );
  expect(renderToStaticMarkup(<Avatar name="Maya Chen" url="/avatars/maya.svg" />)).toContain('<img');
  const outside = renderToStaticMarkup(<Avatar name="Maya Chen" url="https://tracker.example/pixel.png" />);
  expect(outside).not.toContain('<img');
  expect(outside).toContain('>MC<');
  expect(renderToStaticMarkup(<Avatar name="Canvas &amp; Co." url={null} />)).toContain('>CC<');
  expect(renderToStaticMarkup(<Avatar name="Lumen" url="//cdn.example/a.png" />)).toContain('>L<');
});
