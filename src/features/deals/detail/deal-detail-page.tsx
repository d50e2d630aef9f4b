import '../deals.css';
import { deadlineText } from '../data/deadline.ts';
import { Avatar } from '../../../components/avatar.tsx';
import { Link, useParams } from 'react-router-dom';
import { menuRole, useAuth } from '../../../lib/session/auth-context.ts';
import { useLocalData } from '../../../db/hooks/use-database.ts';
import { PageLoading } from '../../../components/page-loading.tsx';
import { formatUsd } from '../../../domain/fees.ts';
import type { ApplicationDocument } from '../../../domain/collections/index.ts';
import { isProNow } from '../../../domain/pro.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useDealAccess, type DealAccess } from '../data/deal-access.ts';
import { DEAL_STATUS_TEXT } from '../data/deal-status.ts';
import {
  displayName,
  isWaitingToSync,
  useDeal,
  useDealApplications,
  useDealEvents,
  useDealReviews,
  useProfiles,
} from '../data/use-deal-data.ts';
import { DealPaymentPanel } from '../../billing/index.ts';
import { ApplicantsPanel } from './applicants-panel.tsx';
import { ApplySection } from './apply-section.tsx';
import { DealWorkPanel } from './work/deal-work-panel.tsx';
import { CompleteDealAction } from './complete-deal-action.tsx';
import { CampaignBriefSection } from './campaign-brief-section.tsx';
import { PaymentSummary } from './payment-summary.tsx';
import { RecommendedCreators } from './recommended-creators.tsx';
import { RejectionNotice } from './rejection-notice.tsx';
import { ReviewsList } from './reviews-list.tsx';
import { DealReviewsSection } from './deal-reviews-section.tsx';
import { isPublished } from '../data/review-operations.ts';
import { useInvitedTo } from '../data/use-invitation.ts';
import { SaveToggle, useInvitations } from '../../profiles/index.ts';
import { invitedCreators } from '../../../domain/saved-lists.ts';
import { ChipList } from '../../../components/chip-list.tsx';
import { ReportButton, useBlockedPeople } from '../../account/index.ts';

/** /deals/{id}: the deal, the creator's apply section or the brand's applicants, reviews, payment summary. */
export function DealDetailPage() {
  const { id = '' } = useParams();
  const auth = useAuth();
  const local = useLocalData();
  const db = local.db;
  const deal = useDeal(id);
  const applications = useDealApplications(id);
  const reviews = useDealReviews(id);
  const events = useDealEvents(id);
  const profiles = useProfiles();
  const { access, deal: serverCopy, keepRefusal } = useDealAccess(id, !!db && !deal.loading && !deal.value);
  const invited = useInvitedTo(id, auth.user?.id ?? null);
  const invitations = useInvitations(auth.user?.id ?? null);
  const blocked = useBlockedPeople(auth.user?.id);
  usePageTitle(deal.value?.title ?? 'Deal');

  if (local.status === 'error') {
    return (
      <div className="page container narrow">
        <p className="form-error" role="alert">
          Failed to load deal details.
        </p>
      </div>
    );
  }
  if (!db || deal.loading || (!deal.value && access === 'checking')) return <PageLoading label="Loading deal..." />;
  // Not on this device but readable (found by an online search): the server's copy, said to be online only.
  const onlineOnly = !deal.value && !!serverCopy;
  const d = deal.value ?? serverCopy;
  if (!d) {
    // The deal left this device (it turned Pro-only, or closed to non-participants): an application
    // the server refused still says why here.
    const refused = applications.value.find((a) => a.creator_id === auth.user?.id && a.sync_rejection)?.sync_rejection;
    return <DealNotOnDevice access={access} refusal={refused?.message} />;
  }

  const user = auth.user;
  const isOwner = !!user && (d.brand_id === user.id || auth.isAdmin);
  const creatorView = menuRole(auth) === 'creator' && !isOwner;
  if (d.pro_only && creatorView && !user?.isPro && !auth.isAdmin) return <ProExclusiveDeal />;

  const brand = profiles.byId.get(d.brand_id);
  const myApplication = user ? (applications.value.find((a) => a.creator_id === user.id) ?? null) : null;
  const winner = d.winner_id ? profiles.byId.get(d.winner_id) : undefined;
  const closed = d.status === 'completed' || d.status === 'cancelled';
  // The brand, staff and the deal's creators see the real escrow state and its actions.
  const paymentParty = !!user && (isOwner || d.selected_creator_ids.includes(user.id));
  const showPaymentPanel = paymentParty && (d.selected_creator_ids.length > 0 || d.escrow_status !== 'none');

  return (
    <div className="page container deal-detail">
      <header className="page-header deal-detail-header">
        <p className="muted deal-detail-brand">
          <Avatar name={displayName(brand, 'A brand')} url={brand?.avatar_url} size={28} square />
          {displayName(brand, 'A brand')}
          {brand?.verified ? <span className="badge badge-verified">Verified</span> : null}
        </p>
        <h1>{d.title}</h1>
        <div className="deal-detail-meta">
          <span className="deal-amount">{formatUsd(d.amount_cents)}</span>
          <span className={`badge badge-deal-${d.status}`}>{DEAL_STATUS_TEXT[d.status]}</span>
          {d.pro_only ? <span className="badge badge-pro">Pro</span> : null}
          {isWaitingToSync(d) ? <span className="badge badge-pending">Waiting to sync</span> : null}
          {onlineOnly ? <span className="badge badge-online-only">Online only</span> : null}
          {d.category ? <span className="chip">{d.category}</span> : null}
          {d.deadline ? <span className="muted">Deadline: {deadlineText(d.deadline)}</span> : null}
        </div>
        {isOwner ? (
          <Link to={`/deals/${d.id}/edit`} className="button button-secondary">
            Edit / Manage
          </Link>
        ) : null}
      </header>
      {d.sync_rejection && isOwner ? <RejectionNotice what="change" message={d.sync_rejection.message} /> : null}
      {onlineOnly && keepRefusal ? (
        <p className="callout callout-warning keep-refusal" role="status">
          {keepRefusal}
        </p>
      ) : null}

      <div className="deal-detail-grid">
        <div className="deal-detail-main">
          <section className="card detail-section" aria-labelledby="description-heading">
            <h2 id="description-heading">Description</h2>
            <p className="prose-text">{d.description}</p>
            <ChipList label="Niches" items={d.niches} />
          </section>
          <section className="card detail-section" aria-labelledby="requirements-heading">
            <h2 id="requirements-heading">Requirements</h2>
            {d.requirements.length || d.deliverables.length ? (
              <ul className="requirement-list">
                {[...d.deliverables, ...d.requirements].map((r, i) => (
                  <li key={`${i}-${r}`}>{r}</li>
                ))}
              </ul>
            ) : (
              <p className="muted">No specific requirements.</p>
            )}
          </section>
          <CampaignBriefSection deal={d} />
          {user
            ? workApplications(applications.value, isOwner ? null : user.id).map((a) => (
                <DealWorkPanel
                  key={a.id}
                  db={db}
                  deal={d}
                  app={a}
                  events={events.value}
                  me={user.id}
                  myParty={isOwner ? 'brand' : 'creator'}
                  names={{
                    creator: displayName(profiles.byId.get(a.creator_id), 'The creator'),
                    brand: displayName(brand, 'The brand'),
                  }}
                />
              ))
            : null}
          {isOwner ? (
            <ApplicantsPanel
              db={db}
              // Pending applications from people the brand blocked are not shown (the server refuses new ones).
              applications={applications.value.filter((a) => a.status !== 'pending' || !blocked.includes(a.creator_id))}
              profiles={profiles.byId}
              closed={closed}
              invited={invitedCreators(invitations.items, d.id)}
            />
          ) : null}
          {isOwner ? (
            <RecommendedCreators
              deal={d}
              profiles={profiles}
              excludeIds={applications.value.map((a) => a.creator_id)}
            />
          ) : null}
          {user ? (
            <DealReviewsSection db={db} deal={d} userId={user.id} reviews={reviews.value} profiles={profiles.byId} />
          ) : null}
          <ReviewsList reviews={reviews.value.filter((r) => isPublished(r, Date.now()))} profiles={profiles.byId} />
        </div>
        <aside className="deal-detail-side">
          {user && !isOwner && auth.role !== 'brand' && invited && !myApplication && d.status === 'open' ? (
            <p className="callout invitation-notice" data-testid="invitation-notice">
              {displayName(brand, 'The brand')} invited you to apply to this campaign.
            </p>
          ) : null}
          {user && !isOwner && auth.role !== 'brand' ? (
            <ApplySection db={db} deal={d} creatorId={user.id} application={myApplication} />
          ) : null}
          {user && !isOwner && auth.role !== 'brand' ? (
            <div className="deal-detail-save">
              <SaveToggle kind="saved_campaigns" entry={d.id} name={d.title} />
            </div>
          ) : null}
          {user && !isOwner ? (
            <div className="deal-detail-report">
              <ReportButton
                about={{ target: 'deal', id: d.id, name: d.title }}
                className="button button-ghost button-small"
              />
            </div>
          ) : null}
          {isOwner && !closed && d.selected_creator_ids.length > 0 ? (
            <section className="card detail-section" aria-labelledby="complete-heading">
              <h2 id="complete-heading">Complete the deal</h2>
              <p className="muted">When the work is done, close the deal so the payout can be released.</p>
              <CompleteDealAction
                db={db}
                deal={d}
                winnerName={displayName(profiles.byId.get(d.selected_creator_ids[0]!), 'A creator')}
              />
            </section>
          ) : null}
          {showPaymentPanel ? (
            <DealPaymentPanel
              dealId={d.id}
              escrowStatus={d.escrow_status}
              dealStatus={d.status}
              dealVersion={d.version}
              fundedPrices={applications.value
                .filter((a) => a.status === 'accepted')
                .map((a) => `${a.id}:${a.price_funded_at ?? ''}`)
                .join(',')}
            />
          ) : null}
          {d.status === 'completed' && !showPaymentPanel ? (
            <PaymentSummary
              deal={d}
              winnerIsPro={winner ? isProNow(winner) : false}
              winnerName={winner ? displayName(winner) : null}
            />
          ) : null}
          <section className="card detail-section" aria-labelledby="facts-heading">
            <h2 id="facts-heading">At a glance</h2>
            <dl className="summary-list">
              <div>
                <dt>Applications</dt>
                <dd>{Math.max(d.applications_count, applications.value.length)}</dd>
              </div>
              <div>
                <dt>Payout</dt>
                <dd className="capitalize">{d.payout_format}</dd>
              </div>
              {d.max_creators ? (
                <div>
                  <dt>Max creators</dt>
                  <dd>{d.max_creators}</dd>
                </div>
              ) : null}
            </dl>
          </section>
        </aside>
      </div>
    </div>
  );
}

/**
 * The applications whose work shows on the deal page: the creator's own, or for the brand each one
 * accepted or still open (offers go back and forth while it is open), accepted first.
 */
function workApplications(
  applications: readonly ApplicationDocument[],
  creatorId: string | null,
): ApplicationDocument[] {
  return applications
    .filter(
      (a) => (creatorId === null || a.creator_id === creatorId) && (a.status === 'accepted' || a.status === 'pending'),
    )
    .filter((a) => !a.sync_rejection)
    .sort((a, b) =>
      a.status === b.status ? (a.created_at ?? '').localeCompare(b.created_at ?? '') : a.status === 'accepted' ? -1 : 1,
    );
}

function ProExclusiveDeal({ refusal }: { refusal?: string | undefined }) {
  return (
    <div className="page container narrow">
      <div className="card access-card pro-gate">
        <span className="badge badge-pro">Pro</span>
        <h1>Pro Exclusive Deal</h1>
        <p>This deal is open to Pro creators only.</p>
        {refusal ? <RejectionNotice what="application" message={refusal} /> : null}
        <Link to="/pricing" className="button button-primary">
          Upgrade to Pro
        </Link>
      </div>
    </div>
  );
}

/** The deal is not in the local database: Pro-only for this user, on its way, or not there at all. */
function DealNotOnDevice({ access, refusal }: { access: DealAccess; refusal: string | undefined }) {
  if (access === 'pro_only') return <ProExclusiveDeal refusal={refusal} />;
  const hint =
    access === 'visible'
      ? 'It has not reached this device yet; it will appear here once it syncs.'
      : access === 'unknown'
        ? 'It is not on this device, and the server cannot be asked right now. Try again when you are back online.'
        : 'It may have been closed, or it is not available to your account.';
  return (
    <div className="page container narrow">
      <div className="card access-card">
        <h1>Deal not found.</h1>
        <p className="muted">{hint}</p>
        {refusal ? <RejectionNotice what="application" message={refusal} /> : null}
        <Link to="/deals" className="button button-primary">
          Browse Deals
        </Link>
      </div>
    </div>
  );
}
