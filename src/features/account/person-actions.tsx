import './account.css';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useDatabase } from '../../db/hooks/use-database.ts';
import { useAuth } from '../../lib/session/auth-context.ts';
import { toastError, toastSuccess } from '../../lib/toasts.ts';
import { endSentence } from '../../domain/end-sentence.ts';
import { blockPerson, unblockPerson } from './data/blocks.ts';
import { useBlockedPeople } from './data/use-blocked-people.ts';
import { ReportButton } from './report-button.tsx';

/** Block (or unblock) and report another person: on their profile and in a conversation with them. */
export function PersonActions({ personId, name, small = false }: { personId: string; name: string; small?: boolean }) {
  const db = useDatabase();
  const userId = useAuth().user?.id;
  const blocked = useBlockedPeople(userId).includes(personId);
  const [confirming, setConfirming] = useState(false);
  if (!userId || userId === personId) return null;
  const buttonClass = `button button-ghost${small ? ' button-small' : ''}`;

  async function block() {
    if (!db || !userId) return;
    try {
      await blockPerson(db, userId, personId);
      toastSuccess(endSentence(`You blocked ${name}`));
      setConfirming(false);
    } catch {
      toastError('The block could not be saved. Please try again.');
    }
  }
  async function unblock() {
    if (!db || !userId) return;
    await unblockPerson(db, userId, personId);
    toastSuccess(endSentence(`You unblocked ${name}`));
  }

  return (
    <div className="person-actions">
      {blocked ? (
        <button type="button" className={buttonClass} disabled={!db} onClick={() => void unblock()}>
          Unblock
        </button>
      ) : (
        <button type="button" className={buttonClass} disabled={!db} onClick={() => setConfirming(true)}>
          Block
        </button>
      )}
      <ReportButton about={{ target: 'user', id: personId, name }} className={buttonClass} />
      {confirming ? (
        <ConfirmDialog
          title={`Block ${name}?`}
          confirmLabel="Block"
          busyLabel="Blocking…"
          onConfirm={block}
          onCancel={() => setConfirming(false)}
        >
          <p>
            {name} will not be able to message you or apply to your deals, and you will not see their messages or
            applications. They are not notified. You can unblock them in Settings → Privacy.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
