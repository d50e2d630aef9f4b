import { useId, useMemo } from 'react';
import { useAuth } from '../../../lib/session/auth-context.ts';
import type { DealInput } from '../../../domain/recommendation.ts';
import { CREATOR_SORT_TEXT } from '../../../domain/search.ts';
import { NICHES } from '../../../domain/niches.ts';
import { useSyncStatus } from '../../../db/hooks/use-sync-status.ts';
import { ShowMore, usePagedList } from '../../../components/show-more.tsx';
import { useDealsPage, useProfiles } from '../data/use-deal-data.ts';
import { useRankedCreators } from '../data/use-recommendations.ts';
import { useCreatorSearch } from '../data/use-search.ts';
import { CreatorCard } from './creator-card.tsx';
import { SearchField, SearchSummary, SortSelect } from './search-controls.tsx';
import { creatorSearchParams, readCreatorSearch, type CreatorSearchState } from './search-params.ts';
import { useUrlSearch } from './use-url-search.ts';

const SHOWN = 12;

/**
 * Creators for the brand: recommended ones (scored in the worker against the brand's newest open
 * deal, or its niches when it has none yet), or, once the brand searches, the creators matching its
 * text (name, username, niches, region, bio) and filters (niches, followers, region, rating).
 */
export function AvailableCreators() {
  const auth = useAuth();
  const profiles = useProfiles();
  const online = useSyncStatus().browserOnline;
  const url = useUrlSearch(readCreatorSearch, creatorSearchParams);
  const page = usePagedList(SHOWN);
  const brandId = auth.user?.id ?? null;
  // The brand's newest open deal, read alone through the (brand, status, newest first) index.
  const newestOpen = useDealsPage(brandId ? { brand_id: brandId, status: 'open' } : null, 1);
  const creators = useMemo(() => profiles.list.filter((p) => p.role === 'creator'), [profiles.list]);
  const s = url.state;
  const searching =
    url.state.q.trim() !== '' ||
    s.sort !== 'best' ||
    s.niches.length > 0 ||
    !!s.minFollowers.trim() ||
    !!s.region.trim() ||
    !!s.minRating.trim();
  const change = (next: CreatorSearchState) => {
    url.update(next);
    page.reset();
  };

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
    enabled: !searching,
  });
  const search = useCreatorSearch({
    enabled: searching,
    search: s,
    creators: profiles.loading ? undefined : creators,
    target,
    online,
  });
  const recommended = ranked.ids.flatMap((id) => {
    const p = profiles.byId.get(id);
    return p ? [p] : [];
  });

  return (
    <section className="deals-section" aria-labelledby="available-creators-heading">
      <h2 id="available-creators-heading">Available Creators</h2>
      <CreatorSearchBar
        state={s}
        onText={(q) => {
          url.setText(q);
          page.reset();
        }}
        onChange={change}
      />
      {searching ? (
        <>
          <SearchSummary
            found={search.hits?.length}
            onlineOnly={search.hits?.filter((h) => !h.onDevice).length ?? 0}
            noun={['creator', 'creators']}
            deviceCount={search.deviceCount}
            online={search.online}
            onlineMessage={search.onlineMessage}
          />
          {search.hits && search.hits.length === 0 ? (
            <p className="empty-state">No creators match your search.</p>
          ) : (
            <>
              <ul className="grid creator-grid" aria-label="Creators found">
                {(search.hits ?? []).slice(0, page.limit).map(({ item, onDevice }) => (
                  <CreatorCard key={item.id} creator={item} terms={search.termsOf(item.id)} onDevice={onDevice} />
                ))}
              </ul>
              {search.hits ? (
                <ShowMore shown={page.limit} total={search.hits.length} noun="creators" onMore={page.more} />
              ) : null}
            </>
          )}
        </>
      ) : ranked.loading ? (
        <p className="muted" role="status">
          Finding creators...
        </p>
      ) : recommended.length === 0 ? (
        <p className="empty-state">No recommended creators found.</p>
      ) : (
        <ul className="grid creator-grid">
          {recommended.map((creator) => (
            <CreatorCard key={creator.id} creator={creator} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** The brand's search box, its filters (niches, followers, region, rating) and a sort. */
function CreatorSearchBar({
  state,
  onText,
  onChange,
}: {
  state: CreatorSearchState;
  onText(q: string): void;
  onChange(next: CreatorSearchState): void;
}) {
  const uid = useId();
  const toggleNiche = (niche: string) =>
    onChange({
      ...state,
      niches: state.niches.includes(niche) ? state.niches.filter((n) => n !== niche) : [...state.niches, niche],
    });
  return (
    <div className="card deal-filters creator-search" role="search" aria-label="Search creators">
      <div className="deal-search">
        <SearchField label="Search creators" placeholder="Name, niche or region" value={state.q} onChange={onText} />
        <SortSelect value={state.sort} options={CREATOR_SORT_TEXT} onChange={(sort) => onChange({ ...state, sort })} />
      </div>
      <div className="deal-filters-row">
        <div className="field">
          <label htmlFor={`${uid}-followers`}>Minimum followers</label>
          <input
            id={`${uid}-followers`}
            inputMode="numeric"
            placeholder="Any"
            value={state.minFollowers}
            onChange={(e) => onChange({ ...state, minFollowers: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${uid}-region`}>Region</label>
          <input
            id={`${uid}-region`}
            placeholder="Any"
            value={state.region}
            onChange={(e) => onChange({ ...state, region: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${uid}-rating`}>Minimum rating</label>
          <select
            id={`${uid}-rating`}
            value={state.minRating}
            onChange={(e) => onChange({ ...state, minRating: e.target.value })}
          >
            <option value="">Any</option>
            {['3', '4', '4.5'].map((r) => (
              <option key={r} value={r}>
                {r} stars and up
              </option>
            ))}
          </select>
        </div>
      </div>
      <details className="deal-filters-niches" open={state.niches.length > 0 || undefined}>
        <summary>Niches{state.niches.length ? ` (${state.niches.length})` : ''}</summary>
        <div className="chip-row" role="group" aria-label="Niches">
          {NICHES.map((niche) => (
            <button
              key={niche}
              type="button"
              className="chip"
              aria-pressed={state.niches.includes(niche)}
              onClick={() => toggleNiche(niche)}
            >
              {niche}
            </button>
          ))}
        </div>
      </details>
    </div>
  );
}
