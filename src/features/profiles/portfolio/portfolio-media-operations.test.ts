import { expect, test } from 'vitest';
import { moveMedia, portfolioFileProblem } from './portfolio-media-operations.ts';

const item = (id: string) => ({ id, url: `/storage/v1/object/public/portfolio/u/${id}.webp`, kind: 'image' as const });

test('Move up and Move down swap neighbours and stop at the ends', () => {
  const media = [item('a'), item('b'), item('c')];
  expect(moveMedia(media, 'b', -1).map((m) => m.id)).toEqual(['b', 'a', 'c']);
  expect(moveMedia(media, 'b', 1).map((m) => m.id)).toEqual(['a', 'c', 'b']);
  expect(moveMedia(media, 'a', -1).map((m) => m.id)).toEqual(['a', 'b', 'c']);
  expect(moveMedia(media, 'c', 1).map((m) => m.id)).toEqual(['a', 'b', 'c']);
  expect(moveMedia(media, 'missing', 1).map((m) => m.id)).toEqual(['a', 'b', 'c']);
});

test('images and short videos within the size limit join a portfolio of at most 12', () => {
  expect(portfolioFileProblem({ type: 'video/mp4', size: 30 * 1024 * 1024 }, 0)).toBeNull();
  expect(portfolioFileProblem({ type: 'image/webp', size: 1000 }, 11)).toBeNull();
  expect(portfolioFileProblem({ type: 'image/webp', size: 1000 }, 12)).toMatch(/at most 12/);
  expect(portfolioFileProblem({ type: 'application/pdf', size: 1000 }, 0)).toMatch(/Choose a JPEG/);
  expect(portfolioFileProblem({ type: 'video/mp4', size: 51 * 1024 * 1024 }, 0)).toBe(
    'Choose a file of at most 50 MB.',
  );
});
