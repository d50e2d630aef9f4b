import { map } from 'rxjs';
import { useLiveQuery } from '../../../db/hooks/use-live-query.ts';

/** Whether the creator was invited to this deal (the server's campaign_invite notification is on the device). */
export function useInvitedTo(dealId: string, userId: string | null): boolean {
  const live = useLiveQuery(
    (db) =>
      userId
        ? db.notifications
            .find({ selector: { user_id: userId, type: 'campaign_invite' } })
            .$.pipe(map((docs) => docs.some((n) => (n.data as Record<string, unknown>).deal_id === dealId)))
        : null,
    [dealId, userId],
  );
  return live.data ?? false;
}
