import { expect, test } from 'vitest';
import { firstRunSteps } from './first-run.ts';

const fresh = { bio: '', niches: [], avatar_url: null };
const undone = (steps: ReturnType<typeof firstRunSteps>) => steps.filter((s) => !s.done).map((s) => s.key);

test('a new creator is led to niches, a bio and a photo before swiping; each step ticks itself', () => {
  expect(undone(firstRunSteps('creator', fresh, 0))).toEqual(['niches', 'bio', 'photo', 'swipe']);
  const ready = {
    bio: 'Trail runner and gear reviewer, posting weekly from the Alps.',
    niches: ['Outdoors', 'Fitness'],
  };
  expect(undone(firstRunSteps('creator', { ...fresh, ...ready }, 0))).toEqual(['photo', 'swipe']);
  expect(undone(firstRunSteps('creator', { ...ready, avatar_url: 'u/me.jpg' }, 1))).toEqual([]);
  // One niche, or the same one twice, is not yet enough for matching.
  expect(undone(firstRunSteps('creator', { ...fresh, niches: ['Food', ' Food '] }, 0))).toContain('niches');
});

test('a new brand is led to say who it is and publish a first deal', () => {
  expect(firstRunSteps('brand', fresh, 0).map((s) => [s.key, s.to])).toEqual([
    ['bio', '/settings?section=account'],
    ['logo', '/settings?section=account'],
    ['deal', '/deals/new'],
  ]);
  expect(undone(firstRunSteps('brand', fresh, 1))).toEqual(['bio', 'logo']);
});
