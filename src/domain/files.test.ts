import { expect, test } from 'vitest';
import { objectPath, safeFileName } from './files.ts';

test('a file name is made safe for an object path, keeping its extension', () => {
  expect(safeFileName('Me at the beach!.jpg')).toBe('Me-at-the-beach-.jpg');
  expect(safeFileName('../../etc/passwd')).toBe('passwd');
  expect(safeFileName('C:\\Users\\me\\Photo 1.PNG')).toBe('Photo-1.PNG');
  expect(safeFileName('.hidden')).toBe('hidden');
  expect(safeFileName('café.webp')).toBe('cafe.webp');
  expect(safeFileName('a..b.pdf')).toBe('a.b.pdf');
  expect(safeFileName('')).toBe('file');
  expect(safeFileName('💥')).toBe('file');
  const long = safeFileName(`${'x'.repeat(300)}.mp4`);
  expect([long.length, long.endsWith('.mp4')]).toEqual([100, true]);
});

test('an object path starts with the folder its bucket is keyed by', () => {
  const userId = '0b7c3f5e-2a8d-4c1b-9e6f-3d2a1b0c9e8f';
  expect(objectPath(userId, 'u1', 'My Logo.png')).toBe(`${userId}/u1-My-Logo.png`);
});
