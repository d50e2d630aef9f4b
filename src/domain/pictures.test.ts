import { expect, test } from 'vitest';
import { isOwnPicture, isPictureOf, publicObjectPath } from './pictures.ts';

const maya = '0192f5b0-1c2d-7e3f-8a4b-5c6d7e8f9a0b';
const other = '0192f5b0-1c2d-7e3f-8a4b-5c6d7e8f9a0c';

test("only public objects in Pacta's own storage count as Pacta's own pictures", () => {
  for (const own of [
    `/storage/v1/object/public/avatars/${maya}/avatar-1.webp`,
    `/storage/v1/object/public/brand-logos/${maya}/logo.png`,
    `/storage/v1/object/public/portfolio/${maya}/0192f5b0-aaaa.mp4`,
  ]) {
    expect({ own, ok: isOwnPicture(own) }).toEqual({ own, ok: true });
  }
  for (const outside of [
    null,
    '',
    'https://tracker.example/pixel.png',
    '//tracker.example/pixel.png',
    '/avatars/maya.svg',
    'data:image/png;base64,iVBORw0KGgo=',
    'data:text/html,<script>alert(1)</script>',
    'javascript:alert(1)',
    `/storage/v1/object/public/deliverables/${maya}/draft.mp4`,
    `/storage/v1/object/public/avatars/${maya}/../../../auth/v1/user`,
    `/storage/v1/object/public/avatars/${maya}/a b.png`,
    `/storage/v1/object/public/avatars/not-a-user/a.png`,
    `/storage/v1/object/public/avatars/${maya}/a.png?x=https://tracker.example`,
    `/storage/v1/object/sign/avatars/${maya}/a.png`,
    `/storage/v1/object/public/avatars/${maya}/${'a'.repeat(2048)}`,
  ]) {
    expect({ outside, ok: isOwnPicture(outside) }).toEqual({ outside, ok: false });
  }
});

test('a picture is saved only from its owner’s folder of the right bucket', () => {
  const avatar = publicObjectPath('avatars', `${maya}/avatar.webp`);
  expect(isPictureOf(avatar, maya, ['avatars', 'brand-logos'])).toBe(true);
  expect(isPictureOf(avatar, other, ['avatars', 'brand-logos'])).toBe(false);
  expect(isPictureOf(avatar, maya, ['portfolio'])).toBe(false);
});
