import { useContext } from 'react';
import type { PactaDatabase } from '../index.ts';
import { LocalDataContext, type LocalDataValue } from './data-context.ts';

/**
 * The signed-in user's local RxDB database (one per user, created outside React by the data
 * manager, replicated by the leader tab), or null while it is opening or when nobody is signed in.
 * Read it through live queries in small `use-*.ts` hooks and write through named operations:
 *
 *   const db = useDatabase();
 *   useEffect(() => {
 *     if (!db) return;
 *     const sub = db.deals.find({ selector: { status: 'open' } }).$.subscribe((docs) => ...);
 *     return () => sub.unsubscribe();
 *   }, [db]);
 *
 * Needs <DataProvider> above it (mounted by the app around the router).
 */
export function useDatabase(): PactaDatabase | null {
  const db = useContext(LocalDataContext).db;
  // A database closed under the screen (the session just ended) is no database: its collections are gone.
  return db && !db.closed ? db : null;
}

/** The database plus its opening state: for screens that show a skeleton or an error panel. */
export function useLocalData(): LocalDataValue {
  const local = useContext(LocalDataContext);
  return local.db?.closed ? { ...local, status: 'opening', db: null } : local;
}
