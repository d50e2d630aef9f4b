import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useDatabase } from '../../db/hooks/use-database.ts';
import { discardRefusedChange, readRefusedChange } from '../../db/refused-changes.ts';
import type { RejectedChange } from '../../db/sync-status.ts';
import { refusedChangeView } from './sync-status-text.ts';

/**
 * One change the server refused, in the sync panel: which change it was, why, a link to the page
 * that mends it, and Discard (keeps what the server has; a refused new item is removed).
 */
export function RefusedChangeItem({ change, onNavigate }: { change: RejectedChange; onNavigate: () => void }) {
  const db = useDatabase();
  const [doc, setDoc] = useState<Record<string, unknown> | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!db) return;
    let live = true;
    void readRefusedChange(db, change.collection, change.id).then((d) => live && setDoc(d));
    return () => {
      live = false;
    };
  }, [db, change.collection, change.id]);
  const view = refusedChangeView(change.collection, change.id, doc);

  async function discard() {
    if (!db) return;
    setBusy(true);
    try {
      await discardRefusedChange(db, change.collection, change.id);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="sync-status-refused-item">
      <strong>{view.what}</strong>
      <span>{change.message || change.code}</span>
      <span className="sync-status-refused-actions">
        {view.href ? (
          <Link to={view.href} onClick={onNavigate}>
            Fix it
          </Link>
        ) : null}
        <button
          type="button"
          className="link-button"
          disabled={!db || busy}
          aria-label={`Discard: ${view.what}`}
          onClick={() => void discard()}
        >
          Discard
        </button>
      </span>
    </li>
  );
}
