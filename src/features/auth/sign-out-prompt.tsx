import { SessionDialog } from './session-dialog.tsx';
import type { SessionManager } from '../../lib/session/session-manager.ts';
import type { SessionState } from '../../lib/session/session-types.ts';

const changes = (n: number) => (n === 1 ? '1 change' : `${n} changes`);

/** Sign-out with unsynced changes (docs/design.md "sign-out"): say how many, offer to wait for sync, never drop them silently. */
export function SignOutPrompt({ manager, state }: { manager: SessionManager; state: SessionState }) {
  const prompt = state.signOutPrompt;
  if (!prompt) return null;
  return (
    <SessionDialog
      title="Unsynced changes"
      actions={
        <>
          <button
            type="button"
            className="button button-primary"
            disabled={prompt.waiting}
            onClick={() => void manager.waitForSyncThenSignOut()}
          >
            {prompt.waiting ? 'Waiting for sync...' : 'Wait for sync, then sign out'}
          </button>
          <button type="button" className="button button-secondary" onClick={() => void manager.signOut()}>
            Sign out anyway
          </button>
          <button type="button" className="button button-ghost" onClick={() => manager.cancelSignOut()}>
            Cancel
          </button>
        </>
      }
    >
      <p>
        You have {changes(prompt.pendingChanges)} that {prompt.pendingChanges === 1 ? 'has' : 'have'} not synced yet.
        Signing out now deletes {prompt.pendingChanges === 1 ? 'it' : 'them'} from this device.
      </p>
      {prompt.error ? (
        <p className="form-error" role="alert">
          Sync could not finish: {prompt.error}
        </p>
      ) : null}
    </SessionDialog>
  );
}
