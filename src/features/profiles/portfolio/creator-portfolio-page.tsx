import '../profile-page.css';
import './portfolio.css';
import { Link, useParams } from 'react-router-dom';
import { ChipList } from '../../../components/chip-list.tsx';
import { Stars } from '../../../components/stars.tsx';
import { useLocalData } from '../../../db/hooks/use-database.ts';
import { useProfile } from '../../../db/hooks/use-my-profile.ts';
import { formatUsd } from '../../../domain/fees.ts';
import { isProNow } from '../../../domain/pro.ts';
import { useAuth, menuRole } from '../../../lib/session/auth-context.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { SaveToggle } from '../save-toggle.tsx';
import { useInvitations } from './use-invitations.ts';
import { InviteToCampaign } from './invite-to-campaign.tsx';
import { PortfolioMedia } from './portfolio-media.tsx';
import { PortfolioReviews } from './portfolio-reviews.tsx';
import { useCreatorPastDeals, useOpenDealsOf, useProfilesById, useReviewsAbout } from '../data/use-portfolio-data.ts';
import { isOwnPicture } from '../../../domain/pictures.ts';
import { storageSrc } from '../../../lib/storage-src.ts';

const STATUS: Record<string, string> = {
  open: 'Open',
  in_progress: 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

function initials(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || '?'
  );
}

/** /creator/:id — a creator's portfolio: who they are, past deals, what brands said; Message and Invite to Campaign. */
export function CreatorPortfolioPage() {
  const { id = '' } = useParams();
  const auth = useAuth();
  const local = useLocalData();
  const profile = useProfile(id);
  const pastDeals = useCreatorPastDeals(id);
  const reviews = useReviewsAbout(id);
  const reviewers = useProfilesById((reviews.data ?? []).map((r) => r.reviewer_id));
  const viewerIsBrand = menuRole(auth) === 'brand' && auth.user?.id !== id;
  const openDeals = useOpenDealsOf(viewerIsBrand ? (auth.user?.id ?? null) : null);
  const invitations = useInvitations(viewerIsBrand ? (auth.user?.id ?? null) : null);
  usePageTitle(profile.data?.full_name || 'Creator portfolio');

  if (local.status === 'error' || profile.error) {
    return (
      <div className="container page">
        <p className="form-error" role="alert">
          Failed to load creator portfolio.
        </p>
      </div>
    );
  }
  if (!local.db || profile.loading) {
    return (
      <div className="container page" role="status" aria-busy="true">
        Loading portfolio...
      </div>
    );
  }
  const p = profile.data;
  if (!p) {
    return (
      <div className="container page">
        <div className="card access-card">
          <h1>Profile not found.</h1>
          <Link to="/deals" className="button button-secondary">
            Browse Deals
          </Link>
        </div>
      </div>
    );
  }
  const name = p.full_name.trim() || p.username || 'Creator';
  const published = reviews.data ?? [];
  const isPro = isProNow(p);
  const self = auth.user?.id === p.id;

  return (
    <div className="container page portfolio">
      <header className="card portfolio-head">
        {isOwnPicture(p.avatar_url) ? (
          <img className="portfolio-avatar" src={storageSrc(p.avatar_url)} alt="" width={96} height={96} />
        ) : (
          <span className="portfolio-avatar portfolio-initials" aria-hidden="true">
            {initials(name)}
          </span>
        )}
        <div className="portfolio-who">
          <h1>{name}</h1>
          <p className="portfolio-badges">
            {p.verified ? <span className="badge badge-verified">Verified</span> : null}
            {isPro ? <span className="badge badge-pro">Pro</span> : null}
            {p.region ? <span className="muted">{p.region}</span> : null}
          </p>
          <dl className="portfolio-stats">
            <div>
              <dt>Followers</dt>
              <dd>{p.followers.toLocaleString('en-US')}</dd>
            </div>
            <div>
              <dt>Rating</dt>
              <dd data-testid="portfolio-rating">
                {published.length || p.rating > 0 ? (
                  <>
                    <Stars rating={Number(p.rating)} /> {Number(p.rating).toFixed(2)}
                  </>
                ) : (
                  'No rating yet'
                )}
              </dd>
            </div>
            <div>
              <dt>Completed deals</dt>
              <dd>{p.completed_deals}</dd>
            </div>
          </dl>
          {p.bio ? <p className="prose-text portfolio-bio">{p.bio}</p> : null}
          <ChipList label="Niches" items={p.niches} />
        </div>
        {self ? null : (
          <div className="portfolio-actions">
            <Link to={`/inbox/new?with=${encodeURIComponent(p.id)}`} className="button button-secondary">
              Message
            </Link>
            {viewerIsBrand && auth.user && local.db ? (
              <>
                <InviteToCampaign
                  db={local.db}
                  brandId={auth.user.id}
                  creatorId={p.id}
                  creatorName={name}
                  openDeals={openDeals.data ?? []}
                  invitations={invitations.items}
                  refusal={invitations.refusal}
                />
                <SaveToggle kind="shortlist" entry={p.id} name={name} />
              </>
            ) : null}
          </div>
        )}
      </header>

      <PortfolioMedia ownerId={p.id} media={p.portfolio_media ?? []} editable={auth.user?.id === p.id} />

      <div className="portfolio-grid">
        <section className="card portfolio-section" aria-labelledby="portfolio-deals">
          <h2 id="portfolio-deals">Past Deals</h2>
          {pastDeals.loading ? (
            <p className="muted">Loading portfolio...</p>
          ) : (pastDeals.data ?? []).length === 0 ? (
            <p className="empty-state">No past deals.</p>
          ) : (
            <ul className="past-deals">
              {(pastDeals.data ?? []).map((d) => (
                <li key={d.id} data-testid="past-deal">
                  <Link to={`/deals/${d.id}`}>{d.title}</Link>
                  <span className={`badge badge-deal-${d.status}`}>{STATUS[d.status]}</span>
                  <span className="past-deal-amount">{formatUsd(d.amount_cents)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <PortfolioReviews reviews={published} reviewers={reviewers} failed={!!reviews.error} />
      </div>
    </div>
  );
}
