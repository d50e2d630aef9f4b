import { Link } from 'react-router-dom';
import { Avatar } from '../../../components/avatar.tsx';
import type { DealDocument } from '../../../domain/collections/index.ts';
import { formatUsd } from '../../../domain/fees.ts';
import { isWaitingToSync } from '../data/use-deal-data.ts';
import { SaveToggle } from '../../profiles/index.ts';
import { Highlight } from '../../../components/highlight.tsx';
import { AvailabilityBadge } from './search-controls.tsx';

/** One deal in a list: the whole card is one link (its title), so it reads as one item to a screen reader. */
export function DealCard({
  deal,
  brandName,
  brandAvatarUrl = null,
  headingLevel = 3,
  saveable = false,
  terms,
  onDevice,
}: {
  deal: DealDocument;
  brandName: string;
  /** The brand's picture (generated, shipped with the data); initials without one. */
  brandAvatarUrl?: string | null;
  headingLevel?: 2 | 3;
  /** Shows Save (a creator's Saved Campaigns), above the card's link. */
  saveable?: boolean;
  /** A search's words, marked in the card. */
  terms?: readonly string[] | undefined;
  /** In search results: whether the deal is on this device (opens offline) or online only. */
  onDevice?: boolean | undefined;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="card deal-card">
      <div className="deal-card-top">
        <span className="deal-amount">{formatUsd(deal.amount_cents, { compact: true })}</span>
        <span className="deal-card-badges">
          {deal.pro_only ? <span className="badge badge-pro">Pro</span> : null}
          {isWaitingToSync(deal) ? <span className="badge badge-pending">Waiting to sync</span> : null}
          {onDevice === undefined ? null : <AvailabilityBadge onDevice={onDevice} />}
        </span>
      </div>
      <Heading className="deal-card-title">
        <Link to={`/deals/${deal.id}`} className="stretched-link">
          <Highlight text={deal.title} terms={terms} />
        </Link>
      </Heading>
      <p className="muted deal-card-brand">
        <Avatar name={brandName} url={brandAvatarUrl} size={24} square />
        <Highlight text={brandName} terms={terms} />
      </p>
      <p className="deal-card-description">
        <Highlight text={deal.description} terms={terms} />
      </p>
      <ul className="tag-list" aria-label="Niches">
        {deal.category ? (
          <li className="chip chip-category">
            <Highlight text={deal.category} terms={terms} />
          </li>
        ) : null}
        {deal.niches.slice(0, 3).map((niche) => (
          <li key={niche} className="chip">
            <Highlight text={niche} terms={terms} />
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
