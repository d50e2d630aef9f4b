import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { isNewHistoryEntry } from './search-params.ts';

/**
 * A search kept in the page's address. The page reads and writes its own copy, so typing never waits
 * for the navigation (which may run as a transition and lag a keystroke: a field fed by the address
 * would then lose letters or move the caret); the copy follows the address only when that changes
 * otherwise (Back, a shared link).
 */
export function useUrlSearch<S extends { q: string }>(
  read: (params: URLSearchParams) => S,
  write: (state: S) => URLSearchParams,
) {
  const [params, setParams] = useSearchParams();
  const paramsKey = params.toString();
  // paramsKey stands for params (a new object each render).
  const fromAddress = useMemo(() => read(new URLSearchParams(paramsKey)), [paramsKey, read]);
  // `seen`: the address the copy last followed; `written`: addresses this page wrote that may still be
  // on their way. Any other address came from elsewhere, and the copy takes it.
  const [copy, setCopy] = useState({ seen: paramsKey, state: fromAddress, written: [] as string[] });
  if (copy.seen !== paramsKey) {
    const ours = copy.written.includes(paramsKey);
    const caughtUp = write(copy.state).toString() === paramsKey;
    setCopy({
      seen: paramsKey,
      state: ours ? copy.state : fromAddress,
      written: ours && !caughtUp ? copy.written : [],
    });
  }
  const go = (next: S, replace: boolean) => {
    const target = write(next);
    setCopy((c) => ({ ...c, state: next, written: [...c.written.slice(-20), target.toString()] }));
    setParams(target, { replace, preventScrollReset: true });
  };
  return {
    state: copy.state,
    /** Each letter typed: a history entry when a search starts or is cleared, else the entry replaced. */
    setText(q: string) {
      go({ ...copy.state, q }, !isNewHistoryEntry(copy.state, { q }));
    },
    /** A filter or a sort: its own history entry. */
    update(next: S) {
      go(next, false);
    },
  };
}
