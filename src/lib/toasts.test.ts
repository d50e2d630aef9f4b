import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { TOAST_DURATION_MS, getToasts, showToast, toastError } from './toasts.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.runAllTimers();
  vi.useRealTimers();
});

const messages = () => getToasts().map((t) => `${t.kind}: ${t.message}`);

test('a toast disappears after 4 seconds', () => {
  expect(TOAST_DURATION_MS).toBe(4_000);
  toastError('Failed to load deals');
  expect(messages()).toEqual(['error: Failed to load deals']);
  vi.advanceTimersByTime(3_999);
  expect(messages()).toEqual(['error: Failed to load deals']);
  vi.advanceTimersByTime(1);
  expect(messages()).toEqual([]);
});

test('the same message is not stacked twice, different ones are', () => {
  const a = showToast('success', 'Settings updated successfully');
  const b = showToast('success', 'Settings updated successfully');
  showToast('error', 'Failed to update settings. Please try again.');
  expect(a).toBe(b);
  expect(messages()).toEqual([
    'success: Settings updated successfully',
    'error: Failed to update settings. Please try again.',
  ]);
});
