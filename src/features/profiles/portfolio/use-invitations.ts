import { map } from 'rxjs';
import { useLiveQuery } from '../../../db/hooks/use-live-query.ts';
import { savedListId } from '../../../domain/saved-lists.ts';

/**
 * The brand's campaign invitations ("<deal id>:<creator id>") and why the server refused the last change, if it did.
 * A refused list the server never held (no version yet) invites nobody: its entries are not shown as sent.
 */
export function useInvitations(brandId: string | null): { items: string[]; refusal: string | null } {
  const live = useLiveQuery(
    (db) =>
      brandId
        ? db.saved_lists.findOne(savedListId(brandId, 'campaign_invites')).$.pipe(
            map((doc) => ({
              items: doc && !(doc.sync_rejection && doc.version === undefined) ? [...doc.items] : [],
              refusal: doc?.sync_rejection?.message ?? null,
            })),
          )
        : null,
    [brandId],
  );
  return live.data ?? { items: [], refusal: null };
}
