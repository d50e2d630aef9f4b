import { useEffect, useState, type DependencyList } from 'react';
import type { Observable } from 'rxjs';
import type { PactaDatabase } from '../../db/index.ts';
import { useDatabase } from './use-database.ts';

export type LiveResult<T> = { data: T | undefined; loading: boolean; error: Error | null };

/**
 * Subscribes to a live RxDB observable built from the user's database (`query.$`, `findOne(id).$`)
 * and re-renders with each new result. `build` returning null or false means "nothing to watch yet".
 * `deps` are what `build` reads besides the database (like useEffect's).
 */
export function useLiveQuery<T>(build: (db: PactaDatabase) => Observable<T> | null | false, deps: DependencyList): LiveResult<T> {
  const db = useDatabase();
  const [result, setResult] = useState<LiveResult<T>>({ data: undefined, loading: true, error: null });
  useEffect(() => {
    if (!db) {
      setResult({ data: undefined, loading: true, error: null });
      return;
    }
    const source = build(db);
    if (!source) return;
    setResult((r) => ({ ...r, loading: true, error: null }));
    const sub = source.subscribe({
      next: (data) => setResult({ data, loading: false, error: null }),
      error: (err: unknown) => setResult({ data: undefined, loading: false, error: err instanceof Error ? err : new Error(String(err)) }),
    });
    return () => sub.unsubscribe();
    // `build` is re-created on every render; `deps` say when it really changes.
  }, [db, ...deps]);
  return result;
}
