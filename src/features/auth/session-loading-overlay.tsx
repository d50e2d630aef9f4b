import { useEffect, useState } from 'react';
import { authMessages } from '../../lib/session/auth-messages.ts';
import { SessionDialog } from './session-dialog.tsx';
import type { SessionManager } from '../../lib/session/session-manager.ts';
import type { SessionState } from '../../lib/session/session-types.ts';

/** "Loading overlay 8 s". */
export const LOADING_OVERLAY_DELAY_MS = 8_000;

/** While the session is still loading after 8 s: 'Taking longer than expected...' with three ways out. */
export function SessionLoadingOverlay({ manager, state }: { manager: SessionManager; state: SessionState }) {
  const [slow, setSlow] = useState(false);
  // Bumped by each action so the 8 s start again for the new attempt.
  const [attempt, setAttempt] = useState(0);
  const loading = state.status === 'loading';

  useEffect(() => {
    setSlow(false);
    if (!loading) return;
    const timer = setTimeout(() => setSlow(true), LOADING_OVERLAY_DELAY_MS);
    return () => clearTimeout(timer);
  }, [loading, attempt]);

  if (!slow || !loading || state.signOutPrompt) return null;

  const act = (action: () => Promise<unknown>) => () => {
    setAttempt((n) => n + 1);
    void action();
  };

  return (
    <SessionDialog
      title={authMessages.takingLonger}
      actions={
        <>
          <button type="button" className="button button-primary" onClick={act(() => manager.restore())}>
            Try Again
          </button>
          <button type="button" className="button button-secondary" onClick={act(() => manager.refreshAndRestore())}>
            Refresh Session
          </button>
          <button type="button" className="button button-ghost" onClick={act(() => manager.requestSignOut())}>
            Sign out and try again
          </button>
        </>
      }
    >
      <p>
        Your session is taking a while to load. You can try again, refresh your session, or sign out and sign in again.
      </p>
    </SessionDialog>
  );
}
