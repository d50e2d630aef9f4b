import { createContext } from 'react';
import type { PactaDatabase } from '../index.ts';

export type LocalDataStatus = 'signed_out' | 'opening' | 'ready' | 'error';

/** What <DataProvider> publishes: the signed-in user's local database and whether it could open. */
export type LocalDataValue = {
  status: LocalDataStatus;
  userId: string | null;
  db: PactaDatabase | null;
  /** Why the local database could not open (status 'error'). */
  error: string | null;
  /** Try opening the local database again after an error. */
  retry(): void;
};

export const LocalDataContext = createContext<LocalDataValue>({
  status: 'signed_out',
  userId: null,
  db: null,
  error: null,
  retry: () => {},
});
