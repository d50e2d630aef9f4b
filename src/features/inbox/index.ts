/**
 * The inbox feature's public surface: the nav's bell and inbox icon, and its screens' loaders for the
 * route table. Other features link to `/inbox/new?with=<profileId>[&deal=<dealId>]` to start or find
 * a conversation; they import nothing else from here.
 */
export { InboxNavLink } from './inbox-nav-link.tsx';
export { NotificationBell } from './notifications/notification-bell.tsx';
