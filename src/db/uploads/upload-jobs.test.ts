import { expect, test } from 'vitest';
import {
  afterUploadError,
  cleanFileName,
  nextJob,
  objectNameFor,
  percentSent,
  progressWorthSaving,
  type UploadJob,
} from './upload-jobs.ts';

const job = (over: Partial<UploadJob>): UploadJob => ({
  id: 'a',
  userId: 'u',
  bucket: 'avatars',
  objectName: 'u/a.webp',
  fileName: 'me.webp',
  contentType: 'image/webp',
  size: 1000,
  target: { kind: 'avatar' },
  state: 'waiting',
  bytesSent: 0,
  error: null,
  createdAt: '2026-11-28T10:00:00.000Z',
  ...over,
});

test('each job uploads to its own object in the folder it belongs to', () => {
  expect(objectNameFor('0192-user', 'job-1', 'image/webp')).toBe('0192-user/job-1.webp');
  expect(objectNameFor('conv', 'job-2', 'application/pdf')).toBe('conv/job-2.pdf');
  expect(objectNameFor('conv', 'job-3', 'application/x-unknown')).toBe('conv/job-3.bin');
});

test('a file name keeps no path and no control characters', () => {
  expect(cleanFileName('C:\\Users\\maya\\brief.pdf')).toBe('brief.pdf');
  expect(cleanFileName('../../etc/passwd')).toBe('passwd');
  expect(cleanFileName('a\u0000b\nc.png')).toBe('abc.png');
  expect(cleanFileName('   ')).toBe('file');
  expect(cleanFileName('x'.repeat(300))).toHaveLength(200);
});

test('the oldest waiting job runs next; one already on the server is saved first; failed ones wait for Retry', () => {
  const jobs = [
    job({ id: 'late', createdAt: '2026-11-28T10:05:00.000Z' }),
    job({ id: 'early', createdAt: '2026-11-28T10:01:00.000Z' }),
    job({ id: 'refused', state: 'failed', createdAt: '2026-11-28T09:00:00.000Z' }),
  ];
  expect(nextJob(jobs)?.id).toBe('early');
  expect(nextJob([...jobs, job({ id: 'uploaded', state: 'saving', createdAt: '2026-11-28T11:00:00.000Z' })])?.id).toBe(
    'uploaded',
  );
  expect(nextJob([job({ state: 'failed' })])).toBeUndefined();
});

test('progress is a whole percent and written down only when it changes', () => {
  expect(percentSent({ bytesSent: 0, size: 0 })).toBe(0);
  expect(percentSent({ bytesSent: 499, size: 1000 })).toBe(49);
  expect(percentSent({ bytesSent: 2000, size: 1000 })).toBe(100);
  expect(progressWorthSaving({ bytesSent: 490, size: 1000 }, 499)).toBe(false);
  expect(progressWorthSaving({ bytesSent: 490, size: 1000 }, 500)).toBe(true);
});

test('a drop while offline waits for the network; a refusal is explained', () => {
  expect(afterUploadError(0, false)).toEqual({ state: 'waiting', error: null });
  expect(afterUploadError(0, true).state).toBe('failed');
  expect(afterUploadError(413, true).error).toBe('This file is too large to upload here.');
  expect(afterUploadError(415, true).error).toBe('This type of file cannot be uploaded here.');
  expect(afterUploadError(403, true).error).toMatch(/not allowed/);
  expect(afterUploadError(400, true, 'Quota exceeded')).toEqual({
    state: 'failed',
    error: 'The upload was refused: Quota exceeded',
  });
  expect(afterUploadError(500, true, 'stack trace').error).toMatch(/did not go through/);
});
