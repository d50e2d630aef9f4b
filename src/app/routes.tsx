import type { ReactNode } from 'react';
import { Navigate, useParams, type RouteObject } from 'react-router-dom';
import { ComingSoon } from '../components/coming-soon.tsx';
import { LandingPage } from '../features/landing/landing-page.tsx';
import { RequireAuth, RequireRole } from './auth/guards.tsx';
import { ShellLayout } from './layout/shell-layout.tsx';
import * as Pages from './pages.ts';
import { ProRoute } from './pro-route.tsx';

const signedIn = (element: ReactNode) => <RequireAuth>{element}</RequireAuth>;
const brandOnly = (element: ReactNode) => <RequireRole roles={['brand']}>{element}</RequireRole>;
const creatorOnly = (element: ReactNode) => <RequireRole roles={['creator']}>{element}</RequireRole>;
const soon = (title: string, description?: string) => <ComingSoon title={title} description={description} />;

/** /creators/{id} is the same portfolio as /creator/{id} (DESIGN.md). */
function CreatorsRedirect() {
  const { id = '' } = useParams();
  return <Navigate to={`/creator/${encodeURIComponent(id)}`} replace />;
}

/** Growth hub tools: routes exist, their screens come later (spec: "No screens for these are defined"). */
const GROWTH_TOOL_ROUTES: [string, string][] = [
  ['/analytics', 'Analytics'],
  ['/campaign-brief-builder', 'Campaign Brief Builder'],
  ['/suggestions', 'Smart Suggestions'],
  ['/performance', 'Performance'],
  ['/brand-matching', 'Brand Matching'],
  ['/content-calendar', 'Content Calendar'],
];

/**
 * The whole route table of both spec documents (000 §2, 001 §2). Screens of later issues show
 * "coming soon" behind the guard they will have, so redirects already behave as they will.
 */
export const routes: RouteObject[] = [
  {
    element: <ShellLayout footer={false} />,
    children: [{ path: '/', element: <LandingPage /> }],
  },
  {
    element: <ShellLayout footer />,
    children: [
      // Accounts
      { path: '/auth/signin', element: <Pages.SignInScreen /> },
      { path: '/signin', element: <Pages.SignInScreen /> },
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
      { path: '/growth', element: signedIn(<Pages.GrowthHubPage />) },
      ...GROWTH_TOOL_ROUTES.map(([path, title]) => ({ path, element: signedIn(soon(title)) })),
      { path: '/referrals/leaderboard', element: soon('Referral Leaderboard') },
      { path: '/referrals/payouts', element: signedIn(soon('Referral payouts')) },
      // Deals and campaigns
      { path: '/deals', element: signedIn(<Pages.DealsPage />) },
      // The screen itself answers signed-out visitors and non-brands (spec 001 §2 texts).
      { path: '/deals/new', element: <Pages.CreateDealPage /> },
      { path: '/deals/:id', element: signedIn(<Pages.DealDetailPage />) },
      // The screen says 'Only brands can edit deals.' / 'You do not have permission…' (spec 001 §6).
      { path: '/deals/:id/edit', element: signedIn(<Pages.EditDealPage />) },
      { path: '/campaign/new', element: brandOnly(soon('New campaign brief')) },
      { path: '/swipe', element: creatorOnly(<Pages.SwipePage />) },
      { path: '/my-deals', element: signedIn(<Pages.MyDealsPage />) },
      // People
      { path: '/profile', element: <Navigate to="/profile/me" replace /> },
      { path: '/profile/:id', element: signedIn(<Pages.ProfilePage />) },
      { path: '/creator/:id', element: signedIn(soon('Creator portfolio')) },
      { path: '/creators/:id', element: <CreatorsRedirect /> },
      // Messages and help
      { path: '/inbox', element: signedIn(soon('Inbox')) },
      { path: '/inbox/:id', element: signedIn(soon('Inbox')) },
      { path: '/notifications', element: signedIn(soon('Notifications')) },
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
    ],
  },
];
