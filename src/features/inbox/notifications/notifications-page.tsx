import './notifications.css';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { useDatabase } from '../../../db/hooks/use-database.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { ShowMore, usePagedList } from '../../../components/show-more.tsx';
import type { NotificationDocument } from '../../../domain/collections/index.ts';
import { markAllNotificationsRead, markNotificationRead } from '../data/inbox-operations.ts';
import { useNotifications } from '../data/use-inbox-data.ts';
import { NotificationLink } from './notification-item.tsx';

const PER_PAGE = 20;

/** /notifications: all of them, newest first, a page at a time; each links to what it is about. */
export function NotificationsPage() {
  const me = useAuth().user?.id ?? null;
  const db = useDatabase();
  const notifications = useNotifications(me);
  const page = usePagedList(PER_PAGE);
  const list = notifications.data ?? [];
  const unread = list.filter((n) => !n.read_at).length;
  const open = (n: NotificationDocument) => db && void markNotificationRead(db, n.id);

  return (
    <div className="page container notifications-page">
      <PageHeader title="Notifications" lead={unread ? `${unread} unread` : undefined}>
        <button
          type="button"
          className="button button-secondary"
          disabled={!unread || !db || !me}
          onClick={() => db && me && void markAllNotificationsRead(db, me)}
        >
          Mark all read
        </button>
      </PageHeader>
      {notifications.error ? (
        <p className="form-error" role="alert">
          Failed to load notifications.
        </p>
      ) : !db || notifications.loading ? (
        <p className="muted" role="status">
          Loading notifications...
        </p>
      ) : list.length === 0 ? (
        <p className="empty-state card">No notifications yet</p>
      ) : (
        <>
          <ul className="notification-list card notifications-page-list">
            {list.slice(0, page.limit).map((n) => (
              <li key={n.id} className="notification-row">
                <NotificationLink notification={n} onOpen={open} />
                {!n.read_at ? (
                  <button type="button" className="button button-ghost button-small" onClick={() => open(n)}>
                    Mark as read<span className="visually-hidden">: {n.title}</span>
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
          <ShowMore shown={page.limit} total={list.length} noun="notifications" onMore={page.more} />
        </>
      )}
    </div>
  );
}
