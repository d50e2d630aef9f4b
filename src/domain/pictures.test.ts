import { expect, test } from 'vitest';
import { isOwnPicture } from './pictures.ts';

test("only Pacta's own paths and inline data:image/ pictures count as Pacta's own", () => {
  for (const own of ['/avatars/maya.svg', '/icons/icon-192.png?v=2', 'data:image/png;base64,iVBORw0KGgo=']) {
    expect({ own, ok: isOwnPicture(own) }).toEqual({ own, ok: true });
  }
  for (const outside of [
    null,
    '',
    'https://tracker.example/pixel.png',
    '//tracker.example/pixel.png',
    '/\\tracker.example/pixel.png',
    '/\t/tracker.example/pixel.png',
    '/\n/tracker.example/pixel.png',
    'data:text/html,<script>alert(1)</script>',
    'javascript:alert(1)',
    `/${'a'.repeat(2048)}`,
  ]) {
    expect({ outside, ok: isOwnPicture(outside) }).toEqual({ outside, ok: false });
  }
});
