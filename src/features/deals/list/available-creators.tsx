import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { SaveToggle } from '../../profiles/index.ts';
import { useAuth } from '../../../lib/session/auth-context.ts';
import type { DealInput } from '../../../domain/recommendation.ts';
import { displayName, useDealsPage, useProfiles } from '../data/use-deal-data.ts';
import { useRankedCreators } from '../data/use-recommendations.ts';
import { Avatar } from '../../../components/avatar.tsx';
import { ChipList } from '../../../components/chip-list.tsx';

const SHOWN = 12;

/**
 * Creators recommended for the brand: scored (in the worker) against the brand's newest open deal,
 * or against the brand's niches when it has none yet.
 */
export function AvailableCreators() {
  const auth = useAuth();
  const profiles = useProfiles();
  const brandId = auth.user?.id ?? null;
  // The brand's newest open deal, read alone through the (brand, status, newest first) index.
  const newestOpen = useDealsPage(brandId ? { brand_id: brandId, status: 'open' } : null, 1);
  const creators = useMemo(() => profiles.list.filter((p) => p.role === 'creator'), [profiles.list]);

  const target: DealInput | null = useMemo(() => {
    if (!brandId || !newestOpen.data) return null;
    const newest = newestOpen.data[0];
    if (newest)
      return {
        id: newest.id,
        brand_id: brandId,
        amount_cents: newest.amount_cents,
        niches: newest.niches,
        platforms: newest.platforms,
        status: 'open',
      };
    const me = profiles.byId.get(brandId);
    return {
      id: `brand:${brandId}`,
      brand_id: brandId,
      amount_cents: 0,
      niches: me?.niches ?? [],
      platforms: me?.platforms ?? [],
      status: 'open',
    };
  }, [brandId, newestOpen.data, profiles.byId]);

  const ranked = useRankedCreators({
    deal: target,
    creators: profiles.loading ? null : creators,
    excludeIds: [],
    limit: SHOWN,
  });
  const shown = ranked.ids.flatMap((id) => {
    const p = profiles.byId.get(id);
    return p ? [p] : [];
  });

  return (
    <section className="deals-section" aria-labelledby="available-creators-heading" aria-busy={ranked.loading}>
      <h2 id="available-creators-heading">Available Creators</h2>
      {ranked.loading ? (
        <p className="muted" role="status">
          Finding creators...
        </p>
      ) : shown.length === 0 ? (
        <p className="empty-state">No recommended creators found.</p>
      ) : (
        <ul className="grid creator-grid">
          {shown.map((creator) => (
            <li key={creator.id} className="card creator-card">
              <div className="creator-card-head">
                <Avatar name={displayName(creator, 'Creator')} url={creator.avatar_url} size={40} />
                <h3>
                  <Link to={`/creator/${creator.id}`}>{displayName(creator, 'Creator')}</Link>
                </h3>
              </div>
              <p className="muted">
                {creator.followers.toLocaleString('en-US')} followers{creator.region ? ` · ${creator.region}` : ''}
              </p>
              <ChipList label="Niches" items={creator.niches.slice(0, 3)} />
              <SaveToggle kind="shortlist" entry={creator.id} name={displayName(creator, 'Creator')} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
