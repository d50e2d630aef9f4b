import { authMessages, MAX_SESSION_RETRIES } from '../../lib/session/auth-messages.ts';
import { SessionDialog } from './session-dialog.tsx';
import type { SessionManager } from '../../lib/session/session-manager.ts';
import type { SessionState } from '../../lib/session/session-types.ts';

/** On every page while a session error exists: the error, Try Again (2 at most) and Sign Out. */
export function SessionErrorDialog({ manager, state }: { manager: SessionManager; state: SessionState }) {
  if (!state.sessionError || state.signOutPrompt) return null;
  const exhausted = state.retryCount >= MAX_SESSION_RETRIES;
  const retrying = state.checking;
  return (
    <SessionDialog
      title="Session problem"
      actions={
        <>
          <button
            type="button"
            className="button button-primary"
            disabled={exhausted || retrying}
            onClick={() => void manager.retryAfterError()}
          >
            {exhausted ? authMessages.maxRetriesReached : 'Try Again'}
          </button>
          <button type="button" className="button button-secondary" onClick={() => void manager.requestSignOut()}>
            Sign Out
          </button>
        </>
      }
    >
      <p className="form-error">{state.sessionError}</p>
      <p className="muted" aria-live="polite">
        Retry attempt: {state.retryCount}/{MAX_SESSION_RETRIES}
      </p>
    </SessionDialog>
  );
}
