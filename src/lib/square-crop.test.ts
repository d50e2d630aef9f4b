import { expect, test } from 'vitest';
import { centerSquare, squareSide } from './square-crop.ts';

test('a picture is cropped to its centred square', () => {
  expect(centerSquare(1200, 800)).toEqual({ x: 200, y: 0, side: 800 });
  expect(centerSquare(801, 1600)).toEqual({ x: 0, y: 399, side: 801 });
  expect(centerSquare(64, 64)).toEqual({ x: 0, y: 0, side: 64 });
});

test('the square is scaled down to the largest side kept, never up', () => {
  expect(squareSide(800, 512)).toBe(512);
  expect(squareSide(200, 512)).toBe(200);
  expect(squareSide(0, 512)).toBe(1);
});
