import { useEffect, useState } from 'react';
import type { Observable } from 'rxjs';

export type Live<T> = { value: T; loading: boolean; error: Error | null };

/**
 * Subscribes to a live observable (an RxDB query's `$`) for as long as the screen shows it. `make`
 * returns null while its inputs are not ready (no database yet, no user): the value stays `initial`.
 */
export function useLiveQuery<T>(make: () => Observable<T> | null, deps: readonly unknown[], initial: T): Live<T> {
  const [state, setState] = useState<Live<T>>({ value: initial, loading: true, error: null });
  useEffect(() => {
    const source = make();
    if (!source) return;
    setState((s) => ({ ...s, loading: true }));
    const sub = source.subscribe({
      next: (value) => setState({ value, loading: false, error: null }),
      error: (error: unknown) => setState((s) => ({ ...s, loading: false, error: error instanceof Error ? error : new Error(String(error)) })),
    });
    return () => sub.unsubscribe();
  }, deps); // the caller lists what `make` depends on
  return state;
}
