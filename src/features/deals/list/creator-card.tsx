import { Link } from 'react-router-dom';
import { SaveToggle } from '../../profiles/index.ts';
import type { ProfileDocument } from '../../../domain/collections/index.ts';
import { Avatar } from '../../../components/avatar.tsx';
import { ChipList } from '../../../components/chip-list.tsx';
import { Highlight } from '../../../components/highlight.tsx';
import { displayName } from '../data/use-deal-data.ts';
import { AvailabilityBadge } from './search-controls.tsx';

/** One creator for a brand: name, followers, region, rating, niches, and Save to the shortlist. */
export function CreatorCard({
  creator,
  terms,
  onDevice,
}: {
  creator: ProfileDocument;
  terms?: readonly string[] | undefined;
  onDevice?: boolean | undefined;
}) {
  const name = displayName(creator, 'Creator');
  return (
    <li className="card creator-card">
      <div className="creator-card-head">
        <Avatar name={name} url={creator.avatar_url} size={40} />
        <h3>
          <Link to={`/creator/${creator.id}`}>
            <Highlight text={name} terms={terms} />
          </Link>
        </h3>
        {onDevice === undefined ? null : <AvailabilityBadge onDevice={onDevice} />}
      </div>
      <p className="muted">
        {creator.followers.toLocaleString('en-US')} followers
        {creator.region ? (
          <>
            {' · '}
            <Highlight text={creator.region} terms={terms} />
          </>
        ) : null}
        {creator.rating > 0 ? ` · ${creator.rating.toFixed(1)} stars` : ''}
      </p>
      {terms?.length ? (
        <ul className="tag-list" aria-label="Niches">
          {creator.niches.slice(0, 4).map((niche) => (
            <li key={niche} className="chip">
              <Highlight text={niche} terms={terms} />
            </li>
          ))}
        </ul>
      ) : (
        <ChipList label="Niches" items={creator.niches.slice(0, 3)} />
      )}
      <SaveToggle kind="shortlist" entry={creator.id} name={name} />
    </li>
  );
}
