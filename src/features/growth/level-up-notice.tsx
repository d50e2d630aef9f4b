import { map } from 'rxjs';
import { useDatabase } from '../../db/hooks/use-database.ts';
import { useLiveQuery } from '../../db/hooks/use-live-query.ts';
import type { NotificationDocument } from '../../domain/collections/index.ts';

/** Levels only grow, so the highest level is the latest news (one award can cross two levels at once). */
const byLevelThenTime = (a: NotificationDocument, b: NotificationDocument) =>
  Number(b.data.level ?? 0) - Number(a.data.level ?? 0) || (b.created_at ?? '').localeCompare(a.created_at ?? '');

/**
 * 'Level Up!' (spec 000 §4): the server's level-up notification, shown on the dashboard as soon as it
 * syncs (the XP award that crossed the threshold created it). Dismiss marks it read, which syncs too.
 */
export function LevelUpNotice({ userId }: { userId: string }) {
  const db = useDatabase();
  const unread = useLiveQuery(
    (database) =>
      database.notifications
        .find({ selector: { user_id: userId, type: 'level_up', read_at: null } })
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as NotificationDocument).sort(byLevelThenTime))),
    [userId],
  );
  const newest = unread.data?.[0];
  if (!newest) return null;

  async function dismiss() {
    if (!db) return;
    const now = new Date().toISOString();
    const docs = await db.notifications.find({ selector: { user_id: userId, type: 'level_up', read_at: null } }).exec();
    await Promise.all(docs.map((d) => d.incrementalPatch({ read_at: now })));
  }

  return (
    <div className="level-up-notice" role="status">
      <p>
        <strong>{newest.title}</strong> {newest.message}
      </p>
      <button type="button" className="button button-secondary button-small" onClick={() => void dismiss()}>
        Dismiss
      </button>
    </div>
  );
}
