import { useState } from 'react';
import { DealWorkError } from '../../data/deal-work-operations.ts';

/** A deal-work write from a button or form: busy while it runs, and the reason when it is refused here. */
export function useWorkAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(write: () => Promise<void>): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      await write();
      return true;
    } catch (err) {
      if (!(err instanceof DealWorkError)) console.warn('deal work write failed', err);
      setError(err instanceof DealWorkError ? err.message : 'That did not work. Please try again.');
      return false;
    } finally {
      setBusy(false);
    }
  }
  /** The reason no longer applies (the form it was about changed). */
  const clearError = () => setError(null);
  return { busy, error, run, clearError };
}
