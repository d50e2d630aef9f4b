import type { ReactNode } from 'react';
import { Navigate, useParams, type RouteObject } from 'react-router-dom';
import { LandingPage } from '../features/landing/landing-page.tsx';
import { RequireAuth, RequireRole } from './auth/guards.tsx';
import { PreloadAfterSignIn } from './auth/preload-after-sign-in.tsx';
import { PageError } from './layout/page-error.tsx';
import { ShellLayout } from './layout/shell-layout.tsx';
import * as Pages from './pages.ts';
import { ProRoute } from './pro-route.tsx';

const signInScreen = (
  <PreloadAfterSignIn>
    <Pages.SignInScreen />
  </PreloadAfterSignIn>
);
const signedIn = (element: ReactNode) => <RequireAuth>{element}</RequireAuth>;
const brandOnly = (element: ReactNode) => <RequireRole roles={['brand']}>{element}</RequireRole>;
const creatorOnly = (element: ReactNode) => <RequireRole roles={['creator']}>{element}</RequireRole>;

/** /creators/{id} is the same portfolio as /creator/{id} (docs/design.md "/creators/{id}"). */
function CreatorsRedirect() {
  const { id = '' } = useParams();
  return <Navigate to={`/creator/${encodeURIComponent(id)}`} replace />;
}

/**
 * The whole route table of both spec documents. Screens still to come show
 * "coming soon" behind the guard they will have, so redirects already behave as they will.
 */
export const routes: RouteObject[] = [
  {
    element: <ShellLayout footer={false} />,
    children: [{ path: '/', element: <LandingPage />, errorElement: <PageError /> }],
  },
  {
    element: <ShellLayout footer />,
    // A page that fails (its code did not load, or it threw) shows PageError inside the shell, with
    // the navigation still there.
    children: [{ errorElement: <PageError />, children: pages() }],
  },
];

function pages(): RouteObject[] {
  return [
    // Accounts
    { path: '/auth/signin', element: signInScreen },
    { path: '/signin', element: signInScreen },
    { path: '/auth/signup', element: <Pages.SignUpScreen /> },
    { path: '/signup', element: <Pages.SignUpScreen /> },
    { path: '/forgot-password', element: <Pages.ForgotPasswordScreen /> },
    { path: '/reset-password', element: <Pages.ResetPasswordScreen /> },
    { path: '/auth/callback', element: <Pages.AuthCallbackScreen /> },
    // Signed-in areas
    { path: '/dashboard', element: signedIn(<Pages.DashboardPage />) },
    { path: '/settings', element: signedIn(<Pages.SettingsPage />) },
    { path: '/upgrade', element: <ProRoute /> },
    { path: '/pro', element: <ProRoute /> },
    { path: '/pricing', element: <Pages.PricingPage /> },
    { path: '/pro/success', element: signedIn(<Pages.ProSuccessPage />) },
    { path: '/earnings', element: creatorOnly(<Pages.EarningsPage />) },
    { path: '/admin', element: <RequireRole roles={['admin']}>{<Pages.StaffHomePage />}</RequireRole> },
    { path: '/admin/ledger', element: <RequireRole roles={['admin']}>{<Pages.AdminLedgerPage />}</RequireRole> },
    { path: '/growth', element: signedIn(<Pages.GrowthHubPage />) },
    // Growth tools (the hub's links): screens from the device's data; the brief builder is the wizard.
    { path: '/analytics', element: signedIn(<Pages.AnalyticsPage />) },
    { path: '/campaign-brief-builder', element: <Navigate to="/campaign/new" replace /> },
    { path: '/suggestions', element: signedIn(<Pages.SuggestionsPage />) },
    { path: '/performance', element: signedIn(<Pages.PerformancePage />) },
    { path: '/brand-matching', element: creatorOnly(<Pages.BrandMatchingPage />) },
    { path: '/content-calendar', element: signedIn(<Pages.ContentCalendarPage />) },
    { path: '/referrals/leaderboard', element: signedIn(<Pages.LeaderboardPage />) },
    { path: '/referrals/payouts', element: signedIn(<Pages.PayoutsPage />) },
    // Deals and campaigns
    { path: '/deals', element: signedIn(<Pages.DealsPage />) },
    // The screen itself answers signed-out visitors and non-brands.
    { path: '/deals/new', element: <Pages.CreateDealPage /> },
    { path: '/deals/:id', element: signedIn(<Pages.DealDetailPage />) },
    // The screen says 'Only brands can edit deals.' / 'You do not have permission…'.
    { path: '/deals/:id/edit', element: signedIn(<Pages.EditDealPage />) },
    { path: '/campaign/new', element: brandOnly(<Pages.CampaignBriefPage />) },
    { path: '/swipe', element: creatorOnly(<Pages.SwipePage />) },
    { path: '/my-deals', element: signedIn(<Pages.MyDealsPage />) },
    // People
    { path: '/profile', element: <Navigate to="/profile/me" replace /> },
    { path: '/profile/:id', element: signedIn(<Pages.ProfilePage />) },
    { path: '/creator/:id', element: signedIn(<Pages.CreatorPortfolioPage />) },
    { path: '/creators/:id', element: <CreatorsRedirect /> },
    // Messages and help
    { path: '/inbox', element: signedIn(<Pages.InboxPage />) },
    // Find or start a conversation: /inbox/new?with=<profileId>[&deal=<dealId>] (before /inbox/:id).
    { path: '/inbox/new', element: signedIn(<Pages.NewConversationPage />) },
    { path: '/inbox/:id', element: signedIn(<Pages.InboxPage />) },
    { path: '/notifications', element: signedIn(<Pages.NotificationsPage />) },
    { path: '/support', element: signedIn(<Pages.SupportPage />) },
    { path: '/support/new', element: signedIn(<Pages.NewTicketPage />) },
    { path: '/support/:id', element: signedIn(<Pages.TicketPage />) },
    // Static and legal pages
    { path: '/about', element: <Pages.AboutPage /> },
    { path: '/contact', element: <Pages.ContactPage /> },
    { path: '/careers', element: <Pages.CareersPage /> },
    { path: '/blog', element: <Pages.BlogListPage /> },
    { path: '/blog/:id', element: <Pages.BlogPostPage /> },
    { path: '/commission-policy', element: <Pages.CommissionPolicyPage /> },
    { path: '/terms', element: <Pages.TermsPage /> },
    { path: '/privacy', element: <Pages.PrivacyPage /> },
    { path: '/cookies', element: <Pages.CookiesPage /> },
    { path: '*', element: <Pages.NotFoundPage /> },
  ];
}
