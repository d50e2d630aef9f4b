import '../deals.css';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { menuRole, useAuth } from '../../../lib/session/auth-context.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { SponsoredBanner } from '../../../components/sponsored-banner.tsx';
import { displayName, useCreatorApplications, useOpenDeals, useProfiles } from '../data/use-deal-data.ts';
import { useRankedDeals } from '../data/use-recommendations.ts';
import { AvailableCreators } from './available-creators.tsx';
import { DealCard } from './deal-card.tsx';
import { DealFilterBar } from './deal-filter-bar.tsx';
import { filterDeals, NO_FILTERS, visibleToCreator } from './deal-filters.ts';
import { ShowMore, usePagedList } from '../../../components/show-more.tsx';

const RECOMMENDED_ON_PAGE = 4;
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
  const open = useOpenDeals();
  const applications = useCreatorApplications(user?.id ?? null);
  const [filters, setFiltersState] = useState(NO_FILTERS);
  const page = usePagedList(DEALS_PER_PAGE);
  const setFilters = (next: typeof filters) => {
    setFiltersState(next);
    page.reset();
  };

  const visible = useMemo(
    () =>
      visibleToCreator(open.value, { isPro: !!user?.isPro, isAdmin: auth.isAdmin }).sort(
        (a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? '') || a.id.localeCompare(b.id),
      ),
    [open.value, user?.isPro, auth.isAdmin],
  );
  const shown = useMemo(() => filterDeals(visible, filters), [visible, filters]);
  const categories = useMemo(() => [...new Set(visible.flatMap((d) => (d.category ? [d.category] : [])))].sort(), [visible]);

  const me = user ? (profiles.byId.get(user.id) ?? null) : null;
  const appliedIds = useMemo(() => applications.value.map((a) => a.deal_id), [applications.value]);
  const recommended = useRankedDeals({
    creator: me,
    creatorIsPro: !!user?.isPro,
    deals: open.loading ? null : visible,
    profiles: profiles.byId,
    excludeIds: appliedIds,
    limit: RECOMMENDED_ON_PAGE,
  });
  const byId = useMemo(() => new Map(visible.map((d) => [d.id, d])), [visible]);
  const recommendedDeals = recommended.ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  const brandName = (brandId: string) => displayName(profiles.byId.get(brandId), 'A brand');

  return (
    <div className="page container deals-page">
      <PageHeader title="Deals" lead="Open sponsorship deals from brands. Apply to the ones that fit you.">
        <Link to="/swipe" className="button button-secondary">
          Swipe deals
        </Link>
      </PageHeader>
      <SponsoredBanner />

      {recommendedDeals.length > 0 ? (
        <section className="deals-section" aria-labelledby="recommended-heading">
          <h2 id="recommended-heading">Recommended for You</h2>
          <div className="grid">
            {recommendedDeals.map((deal) => (
              <DealCard key={deal.id} deal={deal} brandName={brandName(deal.brand_id)} brandAvatarUrl={profiles.byId.get(deal.brand_id)?.avatar_url} saveable />
            ))}
          </div>
        </section>
      ) : null}

      <DealFilterBar value={filters} onChange={setFilters} categories={categories} />

      <section className="deals-section" aria-labelledby="all-deals-heading" aria-busy={open.loading}>
        <h2 id="all-deals-heading">
          All deals <span className="muted deals-count">({shown.length})</span>
        </h2>
        {open.loading ? (
          <p className="muted" role="status">
            Loading deals...
          </p>
        ) : shown.length === 0 ? (
          <p className="empty-state">No deals match your filters.</p>
        ) : (
          <>
            <div className="grid">
              {shown.slice(0, page.limit).map((deal) => (
                <DealCard key={deal.id} deal={deal} brandName={brandName(deal.brand_id)} brandAvatarUrl={profiles.byId.get(deal.brand_id)?.avatar_url} saveable />
              ))}
            </div>
            <ShowMore shown={page.limit} total={shown.length} noun="deals" onMore={page.more} />
          </>
        )}
      </section>
    </div>
  );
}
