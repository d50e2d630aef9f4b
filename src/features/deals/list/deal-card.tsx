import { Link } from 'react-router-dom';
import { Avatar } from '../../../components/avatar.tsx';
import type { DealDocument } from '../../../domain/collections/index.ts';
import { formatUsd } from '../../../domain/fees.ts';
import { isWaitingToSync } from '../data/use-deal-data.ts';
import { SaveToggle } from '../../profiles/index.ts';

/** One deal in a list: the whole card is one link (its title), so it reads as one item to a screen reader. */
export function DealCard({
  deal,
  brandName,
  brandAvatarUrl = null,
  headingLevel = 3,
  saveable = false,
}: {
  deal: DealDocument;
  brandName: string;
  /** The brand's picture (generated, shipped with the data); initials without one. */
  brandAvatarUrl?: string | null;
  headingLevel?: 2 | 3;
  /** Shows Save (a creator's Saved Campaigns), above the card's link. */
  saveable?: boolean;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="card deal-card">
      <div className="deal-card-top">
        <span className="deal-amount">{formatUsd(deal.amount_cents, { compact: true })}</span>
        <span className="deal-card-badges">
          {deal.pro_only ? <span className="badge badge-pro">Pro</span> : null}
          {isWaitingToSync(deal) ? <span className="badge badge-pending">Waiting to sync</span> : null}
        </span>
      </div>
      <Heading className="deal-card-title">
        <Link to={`/deals/${deal.id}`} className="stretched-link">
          {deal.title}
        </Link>
      </Heading>
      <p className="muted deal-card-brand">
        <Avatar name={brandName} url={brandAvatarUrl} size={24} square />
        {brandName}
      </p>
      <p className="deal-card-description">{deal.description}</p>
      <ul className="tag-list" aria-label="Niches">
        {deal.category ? <li className="chip chip-category">{deal.category}</li> : null}
        {deal.niches.slice(0, 3).map((niche) => (
          <li key={niche} className="chip">
            {niche}
          </li>
        ))}
      </ul>
      {saveable ? (
        <div className="deal-card-save">
          <SaveToggle kind="saved_campaigns" entry={deal.id} name={deal.title} />
        </div>
      ) : null}
    </article>
  );
}
