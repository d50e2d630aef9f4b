import { useId, useState, type FormEvent } from 'react';
import './profile-cards.css';
import { Link } from 'react-router-dom';
import { combineLatest, map, of } from 'rxjs';
import { useDatabase } from '../../db/hooks/use-database.ts';
import { useLiveQuery } from '../../db/hooks/use-live-query.ts';
import {
  FREE_LIST_LIMIT,
  isListFull,
  listLimitMessage,
  savedListId,
  type SavedListKind,
} from '../../domain/saved-lists.ts';
import { useAuth } from '../../lib/session/auth-context.ts';
import { MESSAGES } from '../../lib/errors.ts';
import { toastError } from '../../lib/toasts.ts';
import { addToSavedList, removeFromSavedList } from './data/saved-list.ts';
import { resolveSavedDeal, type ResolvedEntry } from './data/resolve-saved-entry.ts';

type Entry = { value: string; label: string; to: string | null };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Saved-list card: Shortlist for a brand, Saved Campaigns for a creator; add and remove; empty or
 * duplicate entries are not added. A typed saved campaign is added as the id of the deal it names
 * (resolveSavedDeal), so one deal is never there twice and it links to the deal. Entries that are ids of a deal or a creator on this device
 * show that deal's title or creator's name and link to it.
 */
export function SavedListCard({
  userId,
  kind,
}: {
  userId: string;
  kind: Extract<SavedListKind, 'shortlist' | 'saved_campaigns'>;
}) {
  const db = useDatabase();
  const id = useId();
  const title = kind === 'shortlist' ? 'Shortlist' : 'Saved Campaigns';
  const [entry, setEntry] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const list = useLiveQuery(
    (database) =>
      database.saved_lists
        .findOne(savedListId(userId, kind))
        .$.pipe(map((doc): string[] => (doc ? [...doc.items] : []))),
    [userId, kind],
  );
  // A write the server refused because the free list is full (the client predicts it, another device may not have).
  const refusal = useLiveQuery(
    (database) =>
      database.saved_lists
        .findOne(savedListId(userId, kind))
        .$.pipe(map((doc) => (doc?.sync_rejection?.code === 'list_limit_reached' ? doc.sync_rejection.message : null))),
    [userId, kind],
  ).data;
  const isPro = useAuth().user?.isPro ?? false;
  const [full, setFull] = useState(false);
  // The ids joined: the same ids in a new array are the same query.
  const idsKey = (list.data ?? []).filter((i) => UUID.test(i)).join(',');
  const names = useLiveQuery(
    (database) => {
      const ids = idsKey ? idsKey.split(',') : [];
      return ids.length === 0
        ? of(new Map<string, Entry>())
        : combineLatest([database.deals.findByIds(ids).$, database.profiles.findByIds(ids).$]).pipe(
            map(([deals, profiles]) => {
              const found = new Map<string, Entry>();
              deals.forEach((d) => found.set(d.id, { value: d.id, label: d.title, to: `/deals/${d.id}` }));
              profiles.forEach((p) =>
                found.set(p.id, { value: p.id, label: p.full_name || 'Creator', to: `/creator/${p.id}` }),
              );
              return found;
            }),
          );
    },
    [idsKey],
  );
  const entries: Entry[] = (list.data ?? []).map(
    (value) => names.data?.get(value) ?? { value, label: value, to: null },
  );

  async function onAdd(event: FormEvent) {
    event.preventDefault();
    if (!db) return;
    if (!entry.trim()) {
      setMessage('Enter something to save.');
      return;
    }
    // Saved Campaigns holds deals: the entry becomes the id of the deal it names.
    const resolved: ResolvedEntry =
      kind === 'saved_campaigns' ? await resolveSavedDeal(db, entry) : { ok: true, id: entry.trim() };
    if (!resolved.ok) {
      setMessage(resolved.message);
      return;
    }
    const value = resolved.id;
    if (isListFull(kind, list.data ?? [], isPro) && !(list.data ?? []).includes(value)) {
      setFull(true);
      return;
    }
    try {
      const added = await addToSavedList(db, userId, kind, value);
      setMessage(added ? null : `Already in your ${title}.`);
      if (added) setEntry('');
    } catch {
      toastError(MESSAGES.settingsUpdateFailed);
    }
  }

  async function onRemove(value: string) {
    if (!db) return;
    try {
      await removeFromSavedList(db, userId, kind, value);
      setFull(false);
    } catch {
      toastError(MESSAGES.settingsUpdateFailed);
    }
  }

  return (
    <section className="card saved-list-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="muted saved-list-hint">
        {kind === 'shortlist'
          ? "Add creators from their cards, their portfolio or your deals' applicants."
          : 'Save deals from a deal card or the swipe card.'}
        {isPro ? null : ` ${(list.data ?? []).length} of ${FREE_LIST_LIMIT} on a free account.`}
      </p>
      {entries.length === 0 ? (
        <p className="muted">
          {kind === 'shortlist' ? 'No creators on your shortlist yet.' : 'No saved campaigns yet.'}
        </p>
      ) : (
        <ul className="saved-list">
          {entries.map((item) => (
            <li key={item.value}>
              {item.to ? <Link to={item.to}>{item.label}</Link> : <span>{item.label}</span>}
              <button
                type="button"
                className="button button-ghost button-small"
                onClick={() => void onRemove(item.value)}
                aria-label={`Remove ${item.label}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="input-row" onSubmit={(e) => void onAdd(e)}>
        <label className="visually-hidden" htmlFor={`${id}-entry`}>
          {kind === 'shortlist' ? 'Add to shortlist' : 'Add a saved campaign'}
        </label>
        <input
          id={`${id}-entry`}
          value={entry}
          placeholder={kind === 'shortlist' ? 'Creator name or link' : 'Deal title or link'}
          onChange={(e) => {
            setEntry(e.target.value);
            setMessage(null);
          }}
          aria-describedby={message ? `${id}-message` : undefined}
        />
        <button type="submit" className="button button-secondary button-small" disabled={!db}>
          Add
        </button>
      </form>
      {message ? (
        <p className="field-error" id={`${id}-message`} role="status">
          {message}
        </p>
      ) : null}
      {full || refusal ? (
        <p className="field-error" role="alert">
          {full ? listLimitMessage(kind) : refusal} <Link to="/upgrade">Upgrade to Pro</Link>
        </p>
      ) : null}
    </section>
  );
}
