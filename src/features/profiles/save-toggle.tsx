import { useState } from 'react';
import { Link } from 'react-router-dom';
import { map } from 'rxjs';
import './profile-cards.css';
import { useDatabase } from '../../db/hooks/use-database.ts';
import { useLiveQuery } from '../../db/hooks/use-live-query.ts';
import type { SavedListDocument } from '../../domain/collections/index.ts';
import { isListFull, listLimitMessage, savedListId } from '../../domain/saved-lists.ts';
import { useAuth } from '../../lib/session/auth-context.ts';
import { toastError } from '../../lib/toasts.ts';
import { addToSavedList, removeFromSavedList } from './data/saved-list.ts';

type ListKind = 'shortlist' | 'saved_campaigns';

const WORDS: Record<ListKind, { add: string; added: string; remove: string }> = {
  shortlist: { add: 'Add to Shortlist', added: 'Shortlisted', remove: 'Remove from Shortlist' },
  saved_campaigns: { add: 'Save', added: 'Saved', remove: 'Remove from Saved Campaigns' },
};

/** The signed-in user's list of a kind, live (null until the database is open). */
export function useSavedList(kind: ListKind): SavedListDocument | null {
  const userId = useAuth().user?.id ?? null;
  const live = useLiveQuery(
    (db) =>
      userId
        ? db.saved_lists
            .findOne(savedListId(userId, kind))
            .$.pipe(map((doc) => (doc ? (doc.toJSON() as SavedListDocument) : null)))
        : null,
    [userId, kind],
  );
  return live.data ?? null;
}

/**
 * Adds a creator to the brand's Shortlist or a deal to the creator's Saved Campaigns (and removes it
 * again). A free list holds 10 entries: the 11th is refused here with the server's sentence and an
 * Upgrade link (the server enforces the same limit).
 */
export function SaveToggle({
  kind,
  entry,
  name,
  compact = false,
}: {
  kind: ListKind;
  entry: string;
  name: string;
  compact?: boolean;
}) {
  const auth = useAuth();
  const db = useDatabase();
  const list = useSavedList(kind);
  const [full, setFull] = useState(false);
  const userId = auth.user?.id;
  if (!userId) return null;
  const items = list?.items ?? [];
  const saved = items.includes(entry);
  const refused = list?.sync_rejection?.code === 'list_limit_reached' ? list.sync_rejection.message : null;
  const words = WORDS[kind];

  async function toggle() {
    if (!db || !userId) return;
    try {
      if (saved) {
        await removeFromSavedList(db, userId, kind, entry);
        setFull(false);
        return;
      }
      if (isListFull(kind, items, auth.user?.isPro ?? false)) {
        setFull(true);
        return;
      }
      await addToSavedList(db, userId, kind, entry);
    } catch (err) {
      console.warn('saving to the list failed', err);
      toastError('Your list could not be changed. Please try again.');
    }
  }

  const message = full ? listLimitMessage(kind) : refused;
  return (
    <span className={`save-toggle${compact ? ' save-toggle-compact' : ''}`}>
      <button
        type="button"
        className={`button button-small ${saved ? 'button-secondary' : 'button-ghost'}`}
        aria-pressed={saved}
        aria-label={saved ? `${words.remove}: ${name}` : `${words.add}: ${name}`}
        disabled={!db}
        onClick={() => void toggle()}
      >
        {saved ? `★ ${words.added}` : `☆ ${words.add}`}
      </button>
      {message ? (
        <span className="save-toggle-message field-error" role="alert">
          {message}{' '}
          <Link to="/upgrade" className="save-toggle-upgrade">
            Upgrade to Pro
          </Link>
        </span>
      ) : null}
    </span>
  );
}
