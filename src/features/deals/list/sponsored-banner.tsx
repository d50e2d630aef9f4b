import { Link } from 'react-router-dom';
import { map } from 'rxjs';
import { useLiveQuery } from '../../../db/hooks/use-live-query.ts';
import { NEWEST_FIRST_SORT } from '../../../db/index.ts';
import type { DealDocument } from '../../../domain/collections/index.ts';
import { localDay } from '../../../domain/deal-deadline.ts';
import { formatUsd } from '../../../domain/fees.ts';
import { seededRandom } from '../../../domain/smart-suggestions.ts';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { offeredToCreator } from './deal-filters.ts';

/** How many of the newest open deals take turns as the featured deal. */
const FEATURED_POOL = 10;

/**
 * Sponsored banner (docs/design.md "sponsored banners"): free users see one on the deals list and the
 * dashboard — a Pacta Pro promotion or a featured open deal, chosen per user and day — and Pro users
 * (a paid tier or a referral grant) never do. The featured deal is one of the newest deals offered to
 * any creator (open, not Pro-only, its deadline not passed), read through the open-deals index (the
 * device may hold 10,000 deals); only the creator view features deals, so the brand view reads none. Staff (admins) see no advertising: the
 * banner sells Pro and deals to members.
 */
export function SponsoredBanner() {
  const auth = useAuth();
  const user = auth.user;
  const hidden = !user || user.isPro || auth.isAdmin;
  const featuring = !hidden && auth.viewAs === 'creator';
  const deals = useLiveQuery(
    (db) =>
      featuring &&
      db.deals
        .find({
          selector: {
            ...offeredToCreator({ isPro: false, isAdmin: false, today: localDay() }),
            brand_id: { $ne: user.id },
          },
          sort: NEWEST_FIRST_SORT,
          limit: FEATURED_POOL,
        })
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as DealDocument))),
    [featuring, user?.id],
  );
  if (hidden || (featuring && deals.loading)) return null;
  const random = seededRandom(`${user.id}:${localDay()}:sponsored`);
  const pool = deals.data ?? [];
  const showDeal = pool.length > 0 && featuring && random() < 0.5;
  const featured = showDeal ? pool[Math.floor(random() * pool.length)]! : null;
  return (
    <aside className="sponsored-banner" aria-label="Sponsored">
      <span className="sponsored-label">Sponsored</span>
      {featured ? (
        <p>
          <strong>Featured deal:</strong> {featured.title} · {formatUsd(featured.amount_cents, { compact: true })}{' '}
          <Link to={`/deals/${featured.id}`}>View deal</Link>
        </p>
      ) : (
        <p>
          <strong>Pacta Pro:</strong> Pro-only deals, priority matching, advanced analytics and no sponsored banners.{' '}
          <Link to="/pro">Upgrade to Pro</Link>
        </p>
      )}
    </aside>
  );
}
