import { Link } from 'react-router-dom';
import type { NotificationDocument } from '../../../domain/collections/index.ts';
import { notificationLink } from '../../../domain/notification-link.ts';
import { shortTime } from '../inbox-format.ts';

/** One notification, linking to what it is about; following the link reads it. */
export function NotificationLink({
  notification,
  onOpen,
}: {
  notification: NotificationDocument;
  onOpen(n: NotificationDocument): void;
}) {
  const unread = !notification.read_at;
  return (
    <Link
      to={notificationLink(notification.data)}
      className={`notification-item${unread ? ' is-unread' : ''}`}
      onClick={() => onOpen(notification)}
    >
      {unread ? <span className="notification-dot" aria-hidden="true" /> : null}
      <span className="notification-text">
        <span className="notification-title">
          {notification.title}
          {unread ? <span className="visually-hidden"> (unread)</span> : null}
        </span>
        {notification.message ? <span className="notification-message">{notification.message}</span> : null}
        <time className="notification-time" dateTime={notification.created_at}>
          {shortTime(notification.created_at)}
        </time>
      </span>
    </Link>
  );
}
