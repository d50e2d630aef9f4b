import '../inbox.css';
import './notifications.css';
import { useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { useDismiss } from '../../../lib/use-dismiss.ts';
import { useDatabase } from '../../../db/hooks/use-database.ts';
import { BellIcon } from '../../../components/icons.tsx';
import type { NotificationDocument } from '../../../domain/collections/index.ts';
import { badgeCount } from '../../../domain/messages.ts';
import { markAllNotificationsRead, markNotificationRead } from '../data/inbox-operations.ts';
import { useNotifications } from '../data/use-inbox-data.ts';
import { NotificationLink } from './notification-item.tsx';

const LATEST = 6;

/**
 * The bell: the unread count ('99+' above 99) and a dropdown of the latest notifications with
 * 'Mark all read' and 'View all notifications'. Reads the local copy, so it works offline.
 */
export function NotificationBell() {
  const me = useAuth().user?.id ?? null;
  const db = useDatabase();
  const notifications = useNotifications(me);
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const list = notifications.data ?? [];
  const unread = list.filter((n) => !n.read_at).length;

  useDismiss(open, ref, () => setOpen(false));

  const onOpen = (n: NotificationDocument) => {
    setOpen(false);
    if (db) void markNotificationRead(db, n.id);
  };

  return (
    <div className="notification-bell" ref={ref}>
      <button
        type="button"
        className="icon-button"
        aria-label={unread ? `Notifications (${unread} unread)` : 'Notifications'}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
      >
        <BellIcon />
        {unread ? (
          <span className="bell-badge" data-testid="bell-count" aria-hidden="true">
            {badgeCount(unread)}
          </span>
        ) : null}
      </button>
      {open ? (
        <div className="notification-dropdown card" id={menuId} role="region" aria-label="Notifications">
          <div className="notification-dropdown-head">
            <h2>Notifications</h2>
            <button
              type="button"
              className="button button-ghost button-small"
              disabled={!unread || !db || !me}
              onClick={() => db && me && void markAllNotificationsRead(db, me)}
            >
              Mark all read
            </button>
          </div>
          {list.length === 0 ? (
            <p className="notification-empty">No notifications yet</p>
          ) : (
            <ul className="notification-list">
              {list.slice(0, LATEST).map((n) => (
                <li key={n.id}>
                  <NotificationLink notification={n} onOpen={onOpen} />
                </li>
              ))}
            </ul>
          )}
          <Link to="/notifications" className="notification-all" onClick={() => setOpen(false)}>
            View all notifications
          </Link>
        </div>
      ) : null}
    </div>
  );
}
