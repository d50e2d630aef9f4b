import { map } from 'rxjs';
import { useLiveQuery } from '../../../db/hooks/use-live-query.ts';
import type { GrowthDocument } from '../../../domain/collections/index.ts';

export type ReferralStats = { total: number; active: number; earningsCents: number };

/**
 * Pure: the referral panel's counts from growth records. An admin's device holds everyone's records and
 * the admin sees all referrals, so `everyone` counts them all; others count their own.
 */
export function referralStats(
  userId: string,
  docs: readonly Pick<GrowthDocument, 'kind' | 'user_id' | 'data'>[],
  opts: { everyone?: boolean } = {},
): ReferralStats {
  let total = 0;
  let active = 0;
  let earningsCents = 0;
  for (const doc of docs) {
    if (!opts.everyone && doc.user_id !== userId) continue;
    if (doc.kind === 'referral') {
      total++;
      // Active: the referred user has made a deal (qualified).
      if (doc.data.qualified === true) active++;
    } else if (doc.kind === 'referral_reward' && typeof doc.data.amount_cents === 'number') {
      earningsCents += doc.data.amount_cents;
    }
  }
  return { total, active, earningsCents };
}

/** Total referrals, active (qualified) referrals and total earnings, live from the growth collection. */
export function useReferralStats(userId: string, opts: { everyone?: boolean } = {}) {
  const everyone = opts.everyone;
  return useLiveQuery(
    (db) =>
      db.growth.find({ selector: { kind: { $in: ['referral', 'referral_reward'] } } }).$.pipe(
        map((docs) =>
          referralStats(
            userId,
            docs.map((d) => d.toJSON() as GrowthDocument),
            { everyone },
          ),
        ),
      ),
    [userId, everyone],
  );
}
