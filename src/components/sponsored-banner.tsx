import { Link } from 'react-router-dom';
import { map } from 'rxjs';
import { useLiveQuery } from '../db/hooks/use-live-query.ts';
import type { DealDocument } from '../domain/collections/index.ts';
import { formatUsd } from '../domain/fees.ts';
import { localDay, seededRandom } from '../domain/smart-suggestions.ts';
import { useAuth } from '../lib/session/auth-context.ts';

/** How many of the best-paying open deals take turns as the featured deal. */
const FEATURED_POOL = 10;

/**
 * Sponsored banner (DESIGN.md "sponsored banners"): free users see one on the deals list and the
 * dashboard — a Pacta Pro promotion or a featured open deal, chosen per user and day — and Pro users
 * (a paid tier or a referral grant) never do.
 */
export function SponsoredBanner() {
  const auth = useAuth();
  const user = auth.user;
  const hidden = !user || user.isPro;
  const deals = useLiveQuery(
    (db) =>
      !hidden &&
      db.deals
        .find({ selector: { status: 'open' } })
        .$.pipe(
          map((docs) =>
            docs
              .map((d) => d.toJSON() as DealDocument)
              .filter((d) => !d.pro_only && d.brand_id !== user.id)
              .sort((a, b) => b.amount_cents - a.amount_cents || a.id.localeCompare(b.id))
              .slice(0, FEATURED_POOL),
          ),
        ),
    [hidden, user?.id],
  );
  if (hidden || deals.loading) return null;
  const random = seededRandom(`${user.id}:${localDay(new Date())}:sponsored`);
  const pool = deals.data ?? [];
  const showDeal = pool.length > 0 && auth.viewAs === 'creator' && random() < 0.5;
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
