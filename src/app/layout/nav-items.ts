import type { ViewAs } from '../../lib/session/auth-context.ts';

export type NavItem = { to: string; label: string };

/** Main menu per role (spec 000 §2 "Navigation bar"). */
export function mainNavItems(role: ViewAs | null): NavItem[] {
  if (role === null) {
    return [
      { to: '/auth/signin', label: 'Sign In' },
      { to: '/auth/signup', label: 'Sign Up' },
    ];
  }
  return [
    { to: '/deals', label: role === 'brand' ? 'Deals' : 'Browse Deals' },
    { to: '/dashboard', label: 'Dashboard' },
    { to: '/profile/me', label: 'Profile' },
    { to: '/settings', label: 'Settings' },
    { to: '/support', label: 'Support' },
  ];
}

/** The mobile menu's extra Quick Actions section: the next thing each kind of user usually does. */
export function quickActions(role: ViewAs | null): NavItem[] {
  if (role === 'brand') {
    return [
      { to: '/deals/new', label: 'Create Deal' },
      { to: '/campaign/new', label: 'New Campaign Brief' },
      { to: '/inbox', label: 'Inbox' },
      { to: '/notifications', label: 'Notifications' },
    ];
  }
  if (role === 'creator') {
    return [
      { to: '/swipe', label: 'Swipe Deals' },
      { to: '/my-deals', label: 'My Deals' },
      { to: '/inbox', label: 'Inbox' },
      { to: '/notifications', label: 'Notifications' },
    ];
  }
  return [
    { to: '/about', label: 'How Pacta works' },
    { to: '/pro', label: 'Pacta Pro' },
    { to: '/contact', label: 'Contact us' },
  ];
}

/** Footer columns, exactly as the spec lists them. */
export const FOOTER_COLUMNS: { heading: string; links: NavItem[] }[] = [
  {
    heading: 'Company',
    links: [
      { to: '/about', label: 'About' },
      { to: '/contact', label: 'Contact' },
      { to: '/careers', label: 'Careers' },
      { to: '/blog', label: 'Blog' },
    ],
  },
  {
    heading: 'Support',
    links: [
      { to: '/support', label: 'Help Center' },
      { to: '/terms', label: 'Terms' },
      { to: '/privacy', label: 'Privacy' },
      { to: '/cookies', label: 'Cookies' },
    ],
  },
  {
    heading: 'Legal',
    links: [
      { to: '/commission-policy', label: 'Commission Policy' },
      { to: '/referrals/leaderboard', label: 'Referral Program' },
    ],
  },
];
