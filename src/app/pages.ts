import { lazyPage } from './lazy-page.ts';

/** Feature screens, each its own chunk so the landing page loads none of them. */
export const AboutPage = lazyPage(() => import('../features/static/about-page.tsx'), 'AboutPage');
export const ContactPage = lazyPage(() => import('../features/static/contact/contact-page.tsx'), 'ContactPage');
export const CareersPage = lazyPage(() => import('../features/static/careers-page.tsx'), 'CareersPage');
export const BlogListPage = lazyPage(() => import('../features/static/blog/blog-list-page.tsx'), 'BlogListPage');
export const BlogPostPage = lazyPage(() => import('../features/static/blog/blog-post-page.tsx'), 'BlogPostPage');
export const TermsPage = lazyPage(() => import('../features/static/legal/terms-page.tsx'), 'TermsPage');
export const PrivacyPage = lazyPage(() => import('../features/static/legal/privacy-page.tsx'), 'PrivacyPage');
export const CookiesPage = lazyPage(() => import('../features/static/legal/cookies-page.tsx'), 'CookiesPage');
export const CommissionPolicyPage = lazyPage(
  () => import('../features/static/legal/commission-policy-page.tsx'),
  'CommissionPolicyPage',
);
export const PricingPage = lazyPage(() => import('../features/static/pro/pricing-page.tsx'), 'PricingPage');
export const GrowthHubPage = lazyPage(() => import('../features/static/growth-hub-page.tsx'), 'GrowthHubPage');
export const NotFoundPage = lazyPage(() => import('../features/static/not-found-page.tsx'), 'NotFoundPage');
export const SignInScreen = lazyPage(() => import('../features/auth/sign-in-page.tsx'), 'SignInScreen');
export const SignUpScreen = lazyPage(() => import('../features/auth/sign-up-page.tsx'), 'SignUpScreen');
export const ForgotPasswordScreen = lazyPage(
  () => import('../features/auth/forgot-password-page.tsx'),
  'ForgotPasswordScreen',
);
export const ResetPasswordScreen = lazyPage(
  () => import('../features/auth/reset-password-page.tsx'),
  'ResetPasswordScreen',
);
export const AuthCallbackScreen = lazyPage(
  () => import('../features/auth/auth-callback-page.tsx'),
  'AuthCallbackScreen',
);
export const DealsPage = lazyPage(() => import('../features/deals/list/deals-page.tsx'), 'DealsPage');
export const CreateDealPage = lazyPage(() => import('../features/deals/create/create-deal-page.tsx'), 'CreateDealPage');
export const DealDetailPage = lazyPage(() => import('../features/deals/detail/deal-detail-page.tsx'), 'DealDetailPage');
export const EditDealPage = lazyPage(() => import('../features/deals/edit/edit-deal-page.tsx'), 'EditDealPage');
export const SwipePage = lazyPage(() => import('../features/deals/swipe/swipe-page.tsx'), 'SwipePage');
export const MyDealsPage = lazyPage(() => import('../features/deals/my-deals/my-deals-page.tsx'), 'MyDealsPage');
export const DashboardPage = lazyPage(() => import('../features/dashboard/dashboard-page.tsx'), 'DashboardPage');
export const SettingsPage = lazyPage(() => import('../features/settings/settings-page.tsx'), 'SettingsPage');
export const ProSuccessPage = lazyPage(() => import('../features/billing/index.ts'), 'ProSuccessPage');
export const AdminLedgerPage = lazyPage(() => import('../features/billing/index.ts'), 'AdminLedgerPage');
export const StaffHomePage = lazyPage(() => import('../features/staff/index.ts'), 'StaffHomePage');
export const EarningsPage = lazyPage(() => import('../features/billing/index.ts'), 'EarningsPage');
export const ProfilePage = lazyPage(() => import('../features/profiles/profile-page.tsx'), 'ProfilePage');
export const CampaignBriefPage = lazyPage(
  () => import('../features/campaigns/campaign-brief-page.tsx'),
  'CampaignBriefPage',
);
export const CreatorPortfolioPage = lazyPage(
  () => import('../features/profiles/portfolio/creator-portfolio-page.tsx'),
  'CreatorPortfolioPage',
);
export const InboxPage = lazyPage(() => import('../features/inbox/inbox-page.tsx'), 'InboxPage');
export const NewConversationPage = lazyPage(
  () => import('../features/inbox/new-conversation-page.tsx'),
  'NewConversationPage',
);
export const NotificationsPage = lazyPage(
  () => import('../features/inbox/notifications/notifications-page.tsx'),
  'NotificationsPage',
);
export const SupportPage = lazyPage(() => import('../features/support/support-page.tsx'), 'SupportPage');
export const NewTicketPage = lazyPage(() => import('../features/support/new-ticket-page.tsx'), 'NewTicketPage');
export const TicketPage = lazyPage(() => import('../features/support/ticket-page.tsx'), 'TicketPage');
// Growth: referral pages and the growth tools (the tools' charts load with these chunks only).
export const LeaderboardPage = lazyPage(
  () => import('../features/growth/leaderboard/leaderboard-page.tsx'),
  'LeaderboardPage',
);
export const PayoutsPage = lazyPage(() => import('../features/growth/payouts/payouts-page.tsx'), 'PayoutsPage');
export const AnalyticsPage = lazyPage(() => import('../features/growth/tools/analytics-page.tsx'), 'AnalyticsPage');
export const SuggestionsPage = lazyPage(
  () => import('../features/growth/tools/suggestions-page.tsx'),
  'SuggestionsPage',
);
export const PerformancePage = lazyPage(
  () => import('../features/growth/tools/performance-page.tsx'),
  'PerformancePage',
);
export const BrandMatchingPage = lazyPage(
  () => import('../features/growth/tools/brand-matching-page.tsx'),
  'BrandMatchingPage',
);
export const ContentCalendarPage = lazyPage(
  () => import('../features/growth/tools/content-calendar-page.tsx'),
  'ContentCalendarPage',
);
