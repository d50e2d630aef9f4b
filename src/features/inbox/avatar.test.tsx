import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import type { ProfileDocument } from '../../domain/collections/index.ts';
import { Avatar } from './avatar.tsx';

const profile = (fields: Partial<ProfileDocument>) => fields as ProfileDocument;

test('the inbox never fetches a picture from another site: a reader sees initials instead', () => {
  const outside = renderToStaticMarkup(
    <Avatar profile={profile({ full_name: 'Maya Chen', avatar_url: 'https://tracker.example/pixel.png' })} />,
  );
  expect(outside).not.toContain('<img');
  expect(outside).toContain('>MC<');
  expect(
    renderToStaticMarkup(
      <Avatar
        profile={profile({
          full_name: 'Maya Chen',
          avatar_url: '/storage/v1/object/public/avatars/0192f5b0-1c2d-7e3f-8a4b-5c6d7e8f9a0b/a.webp',
        })}
      />,
    ),
  ).toContain('<img');
  expect(renderToStaticMarkup(<Avatar profile={profile({ username: 'lumenlabs', avatar_url: null })} />)).toContain(
    '>L<',
  );
});
