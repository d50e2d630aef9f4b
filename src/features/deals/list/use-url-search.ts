import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { isNewHistoryEntry } from './search-params.ts';

/**
 * A search kept in the page's address. The text field has its own state so typing never waits for
 * the navigation; it follows the address when that changes otherwise (Back, a shared link).
 */
export function useUrlSearch<S extends { q: string }>(
  read: (params: URLSearchParams) => S,
  write: (state: S) => URLSearchParams,
) {
  const [params, setParams] = useSearchParams();
  const paramsKey = params.toString();
  // paramsKey stands for params (a new object each render).
  const state = useMemo(() => read(new URLSearchParams(paramsKey)), [paramsKey, read]);
  // `seen`: the address's text the field last saw; `typed`: texts this field wrote that the address
  // may still show on its way (navigation can lag a keystroke). Any other text in the address came
  // from elsewhere (Back, a link), and the field takes it.
  const [field, setField] = useState({ seen: state.q, text: state.q, typed: [] as string[] });
  if (field.seen !== state.q) {
    const ours = field.typed.includes(state.q);
    // Caught up with the field: nothing of ours is on its way any more.
    setField({
      seen: state.q,
      text: ours ? field.text : state.q,
      typed: ours && state.q !== field.text ? field.typed : [],
    });
  }
  const navigate = (next: S, replace: boolean) => setParams(write(next), { replace, preventScrollReset: true });
  return {
    state,
    text: field.text,
    setText(q: string) {
      setField((f) => ({ ...f, text: q, typed: [...f.typed.slice(-20), q] }));
      navigate({ ...state, q }, !isNewHistoryEntry(state, { q }));
    },
    update(next: S) {
      setField((f) => ({ ...f, text: next.q, typed: [...f.typed.slice(-20), next.q] }));
      navigate(next, false);
    },
  };
}
