import { useEffect, useRef, useState, type ReactNode } from 'react';
import { storedSessionUserId } from '../../lib/supabase-events.ts';
import { useAuth } from '../../lib/session/auth-context.ts';
import { LocalDataContext, type LocalDataValue } from '../../db/hooks/data-context.ts';
import { loadLocalDataManager } from '../../db/local-data-manager-loader.ts';
import { connectSessionDataPort } from '../../db/session-data-port.ts';

// At module load, before any session manager exists: its first restore must see the port.
connectSessionDataPort();

const loadManager = loadLocalDataManager;

// A warm start: the stored session's database opens while React renders, supabase-js loads and the
// session is checked, instead of after. Should the session not be restored, the engine closes it again.
const storedUserId = storedSessionUserId();
const RANKING_SCREEN = /^\/(deals|swipe)(\/|$)/;
if (storedUserId) {
  void loadManager()
    .then((m) => m.openUserDatabase(storedUserId))
    .catch(() => {});
  // On a screen that ranks (the deals, the swipe deck, a deal's recommended creators), the ranking worker
  // it waits for (its script, its start-up) gets ready meanwhile too; elsewhere it waits for such a screen.
  if (RANKING_SCREEN.test(location.pathname))
    void import('../../lib/recommendations-client.ts')
      .then((m) => m.warmRecommendationsWorker())
      .catch(() => {
        // The screen that ranks starts it again, and shows its own failure.
      });
}

type OpenState = Omit<LocalDataValue, 'retry'>;
const SIGNED_OUT: OpenState = { status: 'signed_out', userId: null, db: null, error: null };

/**
 * Opens the signed-in user's local database (through the module-level data manager, never inside a
 * component), starts replication, and gives it to screens through `useDatabase()`. While the session
 * is loading (a restore or a recheck) the open database stays. It closes nothing: the sync engine
 * closes the database when the session ends (the session manager deletes it on a sign-out on purpose).
 */
export function DataProvider({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const signedInId = auth.status === 'signed_in' ? (auth.user?.id ?? null) : null;
  const lastUserId = useRef<string | null>(null);
  if (signedInId) lastUserId.current = signedInId;
  if (auth.status === 'signed_out') lastUserId.current = null;
  const userId = lastUserId.current;

  const [state, setState] = useState<OpenState>(SIGNED_OUT);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!userId) {
      // The engine closed the database itself the moment the session ended (sync-engine.ts).
      setState(SIGNED_OUT);
      return;
    }
    let cancelled = false;
    let unwatch = () => {};
    setState({ status: 'opening', userId, db: null, error: null });
    loadManager()
      .then(async (m) => {
        const db = await m.openUserDatabase(userId);
        if (cancelled) return;
        // On a device that holds nothing of the first screen yet, the replication starts before that
        // screen renders: its start-up (a storage to open per collection, a checkpoint to read) waited
        // for the render. With data on the device, after it: the screen's own reads go first.
        const syncing = m.holdsFirstScreen(userId) ? undefined : m.startUserSync(userId);
        setState({ status: 'ready', userId, db, error: null });
        // The engine closes the database the moment the session ends, before React hears of it: no
        // screen may read it from then on (a closed database has no collections).
        unwatch = m.subscribeEnginePhase(() => {
          const now = m.enginePhase();
          if (now.phase === 'ready' && now.userId === userId) return;
          setState((s) => (s.db === db ? { status: 'opening', userId, db: null, error: null } : s));
        });
        await (syncing ?? m.startUserSync(userId));
      })
      .catch((err: unknown) => {
        if (!cancelled)
          setState({ status: 'error', userId, db: null, error: err instanceof Error ? err.message : String(err) });
      });
    return () => {
      cancelled = true;
      unwatch();
    };
  }, [userId, attempt]);

  const value: LocalDataValue = { ...state, retry: () => setAttempt((n) => n + 1) };
  return <LocalDataContext.Provider value={value}>{children}</LocalDataContext.Provider>;
}
