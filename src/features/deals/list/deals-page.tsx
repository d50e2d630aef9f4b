import '../deals.css';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { menuRole, useAuth } from '../../../lib/session/auth-context.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { SponsoredBanner } from './sponsored-banner.tsx';
import { displayName, useDealsCount, useDealsNotAppliedTo, useDealsPage, useProfiles } from '../data/use-deal-data.ts';
import { useRankedDeals } from '../data/use-recommendations.ts';
import { AvailableCreators } from './available-creators.tsx';
import { DealCard } from './deal-card.tsx';
import { DealFilterBar } from './deal-filter-bar.tsx';
import { filterDeals, offeredToCreator } from './deal-filters.ts';
import { localDay } from '../../../domain/deal-deadline.ts';
import { ShowMore, usePagedList } from '../../../components/show-more.tsx';
import { DEAL_SORT_TEXT } from '../../../domain/search.ts';
import { useDealSearch } from '../data/use-search.ts';
import { useSyncStatus } from '../../../db/hooks/use-sync-status.ts';
import { SearchField, SearchSummary, SortSelect } from './search-controls.tsx';
import { dealSearchParams, readDealSearch, type DealSearchState } from './search-params.ts';
import { useUrlSearch } from './use-url-search.ts';

const RECOMMENDED_ON_PAGE = 4;
/** The newest open deals the recommendations choose from: enough to find good fits, never every deal. */
const RECOMMENDATION_CANDIDATES = 500;
const DEALS_PER_PAGE = 24;

/** /deals: creators browse open deals (with Recommended for You); brands see Available Creators. */
export function DealsPage() {
  const auth = useAuth();
  const view = menuRole(auth);
  if (view === 'brand') return <BrandDealsView />;
  return <CreatorDealsView />;
}

function BrandDealsView() {
  return (
    <div className="page container deals-page">
      <PageHeader title="Deals" lead="Find creators for your campaigns, or publish a new deal.">
        <Link to="/deals/new" className="button button-primary">
          Create Deal
        </Link>
      </PageHeader>
      <SponsoredBanner />
      <AvailableCreators />
    </div>
  );
}

function CreatorDealsView() {
  const auth = useAuth();
  const user = auth.user;
  const profiles = useProfiles();
  const online = useSyncStatus().browserOnline;
  const url = useUrlSearch(readDealSearch, dealSearchParams);
  const filters = url.state.filters;
  const page = usePagedList(DEALS_PER_PAGE);
  const change = (next: DealSearchState) => {
    url.update(next);
    page.reset();
  };
  const setFilters = (next: typeof filters) => change({ ...url.state, filters: next });
  // Text or a sort other than the list's own: the search's results replace the list.
  const searching = url.state.q.trim() !== '' || url.state.sort !== 'best';

  const isPro = !!user?.isPro;
  // The day is read once per visit, as the swipe deck does: a deal past its deadline is not offered.
  const [today] = useState(() => localDay());
  const visible = useMemo(
    () => offeredToCreator({ isPro, isAdmin: auth.isAdmin, today }),
    [isPro, auth.isAdmin, today],
  );
  const selector = useMemo(() => filterDeals(visible, filters), [visible, filters]);
  // The cards of the page and the total, each read through the open-deals index (never all deals).
  // The total is counted once the first cards are read: a count walks its whole index range, and the
  // cards would wait behind it (see src/db/list-first.ts).
  const cards = useDealsPage(selector, page.limit);
  const total = useDealsCount(cards.data ? selector : null);

  const me = user ? (profiles.byId.get(user.id) ?? null) : null;
  // The worker scores a bounded set: the newest open deals this creator may see and has not applied
  // to (the creator's applications to those deals only are read).
  const candidates = useDealsNotAppliedTo(user?.id ?? null, visible, RECOMMENDATION_CANDIDATES);
  const recommended = useRankedDeals({
    creator: me,
    creatorIsPro: isPro,
    deals: candidates.deals ?? null,
    profiles: profiles.byId,
    excludeIds: candidates.appliedIds,
    limit: RECOMMENDED_ON_PAGE,
  });
  const byId = useMemo(() => new Map((candidates.deals ?? []).map((d) => [d.id, d])), [candidates.deals]);
  const recommendedDeals = recommended.ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  const search = useDealSearch({
    enabled: searching,
    search: { ...filters, q: url.state.q, sort: url.state.sort },
    visible,
    profiles: profiles.byId,
    me,
    isPro,
    online,
  });
  const brandName = (brandId: string) => displayName(profiles.byId.get(brandId), 'A brand');
  const brandAvatar = (brandId: string) => profiles.byId.get(brandId)?.avatar_url;
  const shown = cards.data ?? [];
  const loading = cards.data === undefined;

  return (
    <div className="page container deals-page">
      <PageHeader title="Deals" lead="Open sponsorship deals from brands. Apply to the ones that fit you.">
        <Link to="/swipe" className="button button-secondary">
          Swipe deals
        </Link>
      </PageHeader>
      <SponsoredBanner />

      <section className="card deal-search" aria-label="Search deals">
        <SearchField
          label="Search deals"
          placeholder="Title, brand, niche or deliverable"
          value={url.state.q}
          onChange={(q) => {
            url.setText(q);
            page.reset();
          }}
        />
        <SortSelect
          value={url.state.sort}
          options={DEAL_SORT_TEXT}
          onChange={(sort) => change({ ...url.state, sort })}
        />
      </section>

      {!searching && recommendedDeals.length > 0 ? (
        <section className="deals-section" aria-labelledby="recommended-heading">
          <h2 id="recommended-heading">Recommended for You</h2>
          <div className="grid">
            {recommendedDeals.map((deal) => (
              <DealCard
                key={deal.id}
                deal={deal}
                brandName={brandName(deal.brand_id)}
                brandAvatarUrl={brandAvatar(deal.brand_id)}
                saveable
              />
            ))}
          </div>
        </section>
      ) : null}

      <DealFilterBar value={filters} onChange={setFilters} />

      {searching ? (
        <section className="deals-section" aria-labelledby="search-results-heading">
          <h2 id="search-results-heading">Search results</h2>
          <SearchSummary
            found={search.hits?.length}
            onlineOnly={search.hits?.filter((h) => !h.onDevice).length ?? 0}
            noun={['deal', 'deals']}
            deviceCount={search.deviceCount}
            online={search.online}
            onlineMessage={search.onlineMessage}
          />
          {search.hits && search.hits.length === 0 ? (
            <p className="empty-state">No deals match your search.</p>
          ) : (
            <>
              <div className="grid">
                {(search.hits ?? []).slice(0, page.limit).map(({ item: deal, onDevice }) => (
                  <DealCard
                    key={deal.id}
                    deal={deal}
                    brandName={brandName(deal.brand_id)}
                    brandAvatarUrl={brandAvatar(deal.brand_id)}
                    saveable
                    terms={search.termsOf(deal.id)}
                    onDevice={onDevice}
                  />
                ))}
              </div>
              {search.hits ? (
                <ShowMore shown={page.limit} total={search.hits.length} noun="deals" onMore={page.more} />
              ) : null}
            </>
          )}
        </section>
      ) : (
        <section className="deals-section" aria-labelledby="all-deals-heading" aria-busy={loading}>
          <h2 id="all-deals-heading">
            All deals {total.data === undefined ? null : <span className="muted deals-count">({total.data})</span>}
          </h2>
          {loading ? (
            <p className="muted" role="status">
              Loading deals...
            </p>
          ) : shown.length === 0 ? (
            <p className="empty-state">No deals match your filters.</p>
          ) : (
            <>
              <div className="grid">
                {shown.map((deal) => (
                  <DealCard
                    key={deal.id}
                    deal={deal}
                    brandName={brandName(deal.brand_id)}
                    brandAvatarUrl={brandAvatar(deal.brand_id)}
                    saveable
                  />
                ))}
              </div>
              {total.data === undefined ? null : (
                <ShowMore shown={page.limit} total={total.data} noun="deals" onMore={page.more} />
              )}
            </>
          )}
        </section>
      )}
    </div>
  );
}
