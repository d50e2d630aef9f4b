import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import {
  createFirstPageRepeats,
  createLiveRowsFirst,
  createPagePace,
  PACED_FROM_DOCUMENTS,
  PACED_PART_DOCUMENTS,
} from './first-sync-pace.ts';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** A pace past the documents handed over unpaced (all written). */
async function pacedPace(liveRows = createLiveRowsFirst(), maxWaitMs?: number) {
  const pace = createPagePace({ liveRows, paced: true, maxWaitMs });
  await pace.handOver(PACED_FROM_DOCUMENTS);
  pace.written(PACED_FROM_DOCUMENTS);
  return pace;
}

/** Hands a page over, and says whether it was handed by now. */
function handing(pace: ReturnType<typeof createPagePace>, count: number) {
  let handed = false;
  void pace.handOver(count).then(() => (handed = true));
  return () => handed;
}

test('a page is handed over once the pages before it are written', async () => {
  const pace = await pacedPace();
  await pace.handOver(100);
  const second = handing(pace, 1_000);
  await vi.advanceTimersByTimeAsync(0);
  expect(second()).toBe(false);
  pace.written(60);
  await vi.advanceTimersByTimeAsync(0);
  expect(second()).toBe(false);
  pace.written(40);
  await vi.advanceTimersByTimeAsync(0);
  expect(second()).toBe(true);
});

test('a page RxDB never writes holds the next one back only so long', async () => {
  const pace = await pacedPace(createLiveRowsFirst(), 2_000);
  await pace.handOver(1_000);
  pace.written(999);
  const second = handing(pace, 1_000);
  await vi.advanceTimersByTimeAsync(1_999);
  expect(second()).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(second()).toBe(true);
});

test('writes beyond what was handed over (rows from the change stream) give no credit for later pages', async () => {
  const pace = await pacedPace();
  pace.written(5_000);
  await pace.handOver(1_000);
  const second = handing(pace, 1_000);
  await vi.advanceTimersByTimeAsync(0);
  expect(second()).toBe(false);
});

test('first-sync pages wait while rows from the change stream are applied, until they are written', async () => {
  const liveRows = createLiveRowsFirst();
  const pace = await pacedPace(liveRows);
  const written = liveRows.begin();
  const page = handing(pace, 1_000);
  await vi.advanceTimersByTimeAsync(500);
  expect(page()).toBe(false);
  written();
  await vi.advanceTimersByTimeAsync(0);
  expect(page()).toBe(true);
});

test('rows never written (the device had them) hold first-sync pages for a second at most, and end once', async () => {
  const liveRows = createLiveRowsFirst(1_000);
  const ended = vi.fn();
  const end = liveRows.begin(ended);
  const page = handing(await pacedPace(liveRows), 1_000);
  await vi.advanceTimersByTimeAsync(999);
  expect(page()).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(page()).toBe(true);
  end();
  expect(ended).toHaveBeenCalledTimes(1);
  // A later arrival is counted afresh.
  liveRows.begin();
  let settled = false;
  void liveRows.settled().then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(0);
  expect(settled).toBe(false);
});

test('an unpaced first sync (rows in the stream) hands every page over at once', async () => {
  const pace = createPagePace({ liveRows: createLiveRowsFirst(), paced: false });
  await pace.handOver(1_000);
  await pace.handOver(1_000);
  await pace.handOver(1_000);
  pace.written(1_000);
  const fourth = handing(pace, 1_000);
  await vi.advanceTimersByTimeAsync(0);
  expect(fourth()).toBe(true);
});

test('rows arriving one after another hold each page a second at most', async () => {
  const liveRows = createLiveRowsFirst(1_000);
  const pace = await pacedPace(liveRows);
  liveRows.begin();
  const page = handing(pace, 1_000);
  await vi.advanceTimersByTimeAsync(600);
  liveRows.begin();
  await vi.advanceTimersByTimeAsync(399);
  expect(page()).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(page()).toBe(true);
});

test('the first documents of a first sync are handed over unpaced', async () => {
  const liveRows = createLiveRowsFirst();
  const pace = createPagePace({ liveRows, paced: true });
  liveRows.begin();
  await pace.handOver(100);
  await pace.handOver(1_000);
  const third = handing(pace, 1_000);
  await vi.advanceTimersByTimeAsync(0);
  expect(third()).toBe(true);
  const fourth = handing(pace, 1_000);
  await vi.advanceTimersByTimeAsync(0);
  expect(fourth()).toBe(false);
});

test("documents of the stream's first page that come again later are not counted: RxDB writes them once", () => {
  const newOnPage = createFirstPageRepeats();
  expect(newOnPage(['a', 'b', 'c'])).toBe(3);
  expect(newOnPage(['x', 'b', 'y', 'a'])).toBe(2);
  expect(newOnPage(['z'])).toBe(1);
});

test('paced pages are handed over in parts; the first documents and an unpaced first sync whole', async () => {
  const paced = createPagePace({ liveRows: createLiveRowsFirst(), paced: true });
  expect(paced.partSize()).toBeUndefined();
  await paced.handOver(PACED_FROM_DOCUMENTS);
  expect(paced.partSize()).toBe(PACED_PART_DOCUMENTS);
  const unpaced = createPagePace({ liveRows: createLiveRowsFirst(), paced: false });
  await unpaced.handOver(PACED_FROM_DOCUMENTS * 2);
  expect(unpaced.partSize()).toBeUndefined();
});
