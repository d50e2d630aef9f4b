import { expect, test } from 'vitest';
import { batched } from './batched.ts';

/** A read whose batches the test sees and ends by hand. */
function heldReads() {
  const reads: { inputs: number[]; end: () => void; fail: (err: Error) => void }[] = [];
  const read = (inputs: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      reads.push({ inputs, end: () => resolve(inputs.map((n) => `answer ${n}`)), fail: reject });
    });
  return { reads, read };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

test('calls made together are one read; calls made while every lane reads wait and go together in the next', async () => {
  const { reads, read } = heldReads();
  const ask = batched(read, { max: 100, lanes: 1 });
  const first = [1, 2, 3].map(ask);
  await turn();
  expect(reads.map((r) => r.inputs)).toEqual([[1, 2, 3]]);

  const later = [4, 5].map(ask);
  await turn();
  await turn();
  expect(reads).toHaveLength(1);
  reads[0]!.end();
  expect(await Promise.all(first)).toEqual(['answer 1', 'answer 2', 'answer 3']);
  await turn();
  expect(reads.map((r) => r.inputs)).toEqual([
    [1, 2, 3],
    [4, 5],
  ]);
  reads[1]!.end();
  expect(await Promise.all(later)).toEqual(['answer 4', 'answer 5']);
});

test('a free lane reads at once, at most `max` calls go in one read, and a failed read fails only its calls', async () => {
  const { reads, read } = heldReads();
  const ask = batched(read, { max: 2, lanes: 2 });
  const calls = [1, 2, 3, 4, 5].map(ask);
  await turn();
  // Two lanes: two reads of two; the fifth call waits for a lane.
  expect(reads.map((r) => r.inputs)).toEqual([
    [1, 2],
    [3, 4],
  ]);
  reads[0]!.fail(new Error('connection lost'));
  await expect(calls[0]).rejects.toThrow('connection lost');
  await expect(calls[1]).rejects.toThrow('connection lost');
  await turn();
  expect(reads.map((r) => r.inputs)).toEqual([[1, 2], [3, 4], [5]]);
  reads[1]!.end();
  reads[2]!.end();
  expect(await Promise.all(calls.slice(2))).toEqual(['answer 3', 'answer 4', 'answer 5']);
});
