import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { DealDocument, ProfileDocument } from '../../../domain/collections/index.ts';
import { displayName } from '../data/use-deal-data.ts';
import { toDealInput, useRankedCreators } from '../data/use-recommendations.ts';
import { creatorsForDealNiches } from '../../../domain/recommendation.ts';

/** The recommended-creators toggle of a deal (scored in the worker, only once shown). */
export function RecommendedCreators({
  deal,
  profiles,
  excludeIds,
}: {
  deal: DealDocument;
  profiles: { byId: ReadonlyMap<string, ProfileDocument>; list: ProfileDocument[]; loading: boolean };
  excludeIds: readonly string[];
}) {
  const [open, setOpen] = useState(false);
  const creators = useMemo(
    () =>
      creatorsForDealNiches(
        deal.niches,
        profiles.list.filter((p) => p.role === 'creator'),
      ),
    [profiles.list, deal.niches],
  );
  const input = useMemo(() => toDealInput(deal), [deal]);
  const ranked = useRankedCreators({
    deal: input,
    creators: profiles.loading ? null : creators,
    excludeIds,
    limit: 10,
    enabled: open,
  });
  const shown = ranked.ids.flatMap((id) => {
    const p = profiles.byId.get(id);
    return p ? [p] : [];
  });
  return (
    <section className="card detail-section" aria-labelledby="recommended-creators-heading">
      <div className="section-heading-row">
        <h2 id="recommended-creators-heading">Recommended creators</h2>
        <button
          type="button"
          className="button button-secondary button-small"
          aria-expanded={open}
          aria-controls="recommended-creators-list"
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide Recommended Creators' : 'Show Recommended Creators'}
        </button>
      </div>
      <div id="recommended-creators-list" hidden={!open}>
        {!open ? null : ranked.loading ? (
          <p className="muted" role="status">
            Finding creators...
          </p>
        ) : shown.length === 0 ? (
          <p className="empty-state">No recommended creators found.</p>
        ) : (
          <ul className="applicant-list">
            {shown.map((p) => (
              <li key={p.id} className="applicant-row">
                <Link to={`/creator/${p.id}`} className="applicant-name">
                  {displayName(p, 'Creator')}
                </Link>
                <span className="muted">
                  {p.niches.slice(0, 3).join(', ')} · {p.followers.toLocaleString('en-US')} followers
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
