/**
 * Where a notification leads: its own `link` when the server gave one (an app path), otherwise the thing
 * it is about, by the id its `data` carries. Shared by the bell, /notifications and Web Push.
 */
export function notificationLink(data: Record<string, unknown> | null | undefined): string {
  const d = data ?? {};
  const link = d.link;
  // Only app paths: a notification never sends anyone off-site.
  if (typeof link === 'string' && link.startsWith('/') && !link.startsWith('//')) return link;
  const id = (key: string) => (typeof d[key] === 'string' && d[key] ? encodeURIComponent(d[key]) : undefined);
  if (id('conversation_id')) return `/inbox/${id('conversation_id')}`;
  if (id('ticket_id')) return '/support';
  if (id('deal_id')) return `/deals/${id('deal_id')}`;
  if (d.level !== undefined) return '/dashboard';
  return '/notifications';
}
