import { useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { useAuth } from '../../lib/session/auth-context.ts';
import { useLocalData } from '../../db/hooks/use-database.ts';
import { useMyProfile } from '../../db/hooks/use-my-profile.ts';
import {
  LeaderboardCard,
  LevelUpNotice,
  ProfileChecklist,
  ReferralPanel,
  SmartSuggestionsList,
} from '../growth/index.ts';
import { SponsoredBanner } from '../deals/index.ts';
import { SavedListCard, SocialLinksForm, XpProgress } from '../profiles/index.ts';
import { MESSAGES } from '../../lib/errors.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { brandStats, creatorStats, greeting } from './dashboard-model.ts';
import { ApplicationList, DealList, MessageList } from './dashboard-lists.tsx';
import { useDashboardApplications, useDashboardDeals, useRecentMessages } from './data/use-dashboard-data.ts';
import { FirstRunCard } from './first-run-card.tsx';
import { firstRunSteps } from './first-run.ts';
import { WorkWaitingCard } from './work-waiting-card.tsx';
import './dashboard.css';

/** Dashboard: skeleton, error with Try Again, redirect when signed out, then the content. */
export function DashboardPage() {
  usePageTitle('Dashboard');
  const auth = useAuth();
  const local = useLocalData();
  // Bumped by Try Again: the content subscribes to its queries afresh.
  const [attempt, setAttempt] = useState(0);

  if (auth.status === 'signed_out') return <Navigate to="/auth/signin" replace />;
  if (local.status === 'error') return <DashboardError onRetry={local.retry} />;
  if (auth.status !== 'signed_in' || !auth.user || local.status !== 'ready') return <DashboardSkeleton />;
  return <DashboardContent key={attempt} onRetry={() => setAttempt((n) => n + 1)} />;
}

export function DashboardSkeleton() {
  return (
    <div className="container page dashboard" aria-busy="true">
      <p className="visually-hidden" role="status">
        Loading dashboard…
      </p>
      <div className="skeleton skeleton-title" />
      <div className="dashboard-top">
        <div className="skeleton skeleton-card" />
        <div className="skeleton skeleton-card" />
      </div>
      <div className="skeleton skeleton-row" />
      <div className="skeleton skeleton-card" />
    </div>
  );
}

function DashboardError({ onRetry }: { onRetry(): void }) {
  return (
    <div className="container page dashboard">
      <div className="card error-panel" role="alert">
        <h1>Dashboard</h1>
        <p>{MESSAGES.dashboardFailed}</p>
        <button type="button" className="button button-primary" onClick={onRetry}>
          Try Again
        </button>
      </div>
    </div>
  );
}

function DashboardContent({ onRetry }: { onRetry(): void }) {
  const auth = useAuth();
  const user = auth.user!;
  const view = auth.isAdmin ? auth.viewAs : user.role === 'brand' ? 'brand' : 'creator';
  const all = auth.isAdmin;
  const profile = useMyProfile();
  const deals = useDashboardDeals(user.id, all, view === 'brand');
  const applications = useDashboardApplications(user.id, all, view === 'creator');
  const messages = useRecentMessages(user.id);

  const failed = profile.error ?? (view === 'brand' ? deals.error : applications.error) ?? messages.error;
  if (failed) return <DashboardError onRetry={onRetry} />;
  const listLoading = view === 'brand' ? deals.loading : applications.loading;
  if (profile.loading || listLoading) return <DashboardSkeleton />;

  const me = profile.data;
  const fullName = me?.full_name || user.fullName || user.email;
  // The counts come once the list is read (undefined until then).
  const { shown, counts, stats } =
    view === 'brand'
      ? { shown: deals.data?.deals.length ?? 0, counts: deals.data?.counts, stats: brandStats(deals.data?.counts) }
      : {
          shown: applications.data?.applications.length ?? 0,
          counts: applications.data?.counts,
          stats: creatorStats(applications.data?.counts, me?.completed_deals ?? 0),
        };
  // At least what the list shows: during the first sync a list and its count arrive in separate updates.
  const listCount = Math.max(shown, counts?.total ?? 0);

  return (
    <div className="container page dashboard">
      <header className="dashboard-welcome">
        <div>
          <h1>
            {greeting(fullName, {
              createdAt: me?.created_at,
              itemCount: listCount,
              messageCount: messages.data?.length ?? 0,
            })}
          </h1>
          <p className="dashboard-badges">
            {user.isPro ? <span className="badge badge-pro">Pro</span> : null}
            {me?.verified || user.verified ? <span className="badge badge-verified">Verified Account</span> : null}
            {auth.isAdmin ? <span className="badge badge-admin">Admin</span> : null}
          </p>
          {!me ? <p className="muted">Your profile is still syncing to this device.</p> : null}
        </div>
        {auth.isAdmin ? (
          <div className="dashboard-admin">
            <div className="view-toggle" role="group" aria-label="Dashboard view">
              <button type="button" aria-pressed={auth.viewAs === 'brand'} onClick={() => auth.setViewAs('brand')}>
                Brand View
              </button>
              <button type="button" aria-pressed={auth.viewAs === 'creator'} onClick={() => auth.setViewAs('creator')}>
                Creator View
              </button>
            </div>
            <Link className="button button-primary" to="/admin">
              Staff home
            </Link>
            <Link className="button button-secondary" to="/deals/new">
              Create New Deal
            </Link>
          </div>
        ) : null}
      </header>

      <LevelUpNotice userId={user.id} />

      {auth.isAdmin || !me ? null : <FirstRunCard steps={firstRunSteps(view, me, listCount)} />}

      {auth.isAdmin ? null : <WorkWaitingCard userId={user.id} side={view} />}

      <div className="dashboard-top">
        <section className="card" aria-labelledby="xp-title">
          <h2 id="xp-title">Your progress</h2>
          <XpProgress xp={me?.xp ?? 0} />
          {/* Staff accounts have no public profile to complete. */}
          {auth.isAdmin ? null : <ProfileChecklist profile={me} />}
        </section>
        <LeaderboardCard userId={user.id} xp={me?.xp ?? 0} referrals={me?.referrals_count ?? 0} />
      </div>

      <SponsoredBanner />

      <section className="dashboard-section" aria-labelledby="stats-title">
        <h2 id="stats-title">Quick Stats</h2>
        <dl className="quick-stats" aria-busy={counts === undefined}>
          {stats.map((s) => (
            <div className="card" key={s.label}>
              <dt>{s.label}</dt>
              <dd className="stat">{s.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <div className="dashboard-columns">
        {view === 'brand' ? (
          <DealList title={all ? 'All Deals' : 'Your Deals'} deals={deals.data?.deals ?? []} total={listCount} />
        ) : (
          <ApplicationList
            title={all ? 'All Applications' : 'Your Applications'}
            items={applications.data?.applications ?? []}
            total={listCount}
          />
        )}
        <MessageList userId={user.id} items={messages.data ?? []} />
      </div>

      <SmartSuggestionsList />

      <div className="dashboard-cards">
        <ReferralPanel userId={user.id} code={me?.referral_code ?? null} everyone={all} onRetry={onRetry} />
        <SavedListCard userId={user.id} kind={view === 'brand' ? 'shortlist' : 'saved_campaigns'} />
        <div className="card">
          <SocialLinksForm userId={user.id} role={view} links={me?.social_links ?? {}} rejection={me?.sync_rejection} />
        </div>
      </div>
    </div>
  );
}
