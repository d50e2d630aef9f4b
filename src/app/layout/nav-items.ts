import type { ViewAs } from '../../lib/session/auth-context.ts';

export type NavItem = { to: string; label: string };

/** Main menu per role ("Navigation bar"); staff, in either view, also have their own home first. */
export function mainNavItems(role: ViewAs | null, staff = false): NavItem[] {
  if (role === null) {
    return [
      { to: '/auth/signin', label: 'Sign In' },
      { to: '/auth/signup', label: 'Sign Up' },
    ];
  }
  return [
    ...(staff ? [{ to: '/admin', label: 'Staff' }] : []),
    { to: '/deals', label: role === 'brand' ? 'Deals' : 'Browse Deals' },
    { to: '/dashboard', label: 'Dashboard' },
    // A creator's payouts are the money they came for: one click from every page on a desktop too.
    // Not in staff's creator view: their row (Staff, the view toggle) has no room left at 1280 px,
    // and staff earn nothing; the menu still lists it.
    ...(role === 'creator' && !staff ? [{ to: '/earnings', label: 'Earnings' }] : []),
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
      { to: '/earnings', label: 'Earnings' },
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

/**
 * The small-screen menu: the bar's links plus Notifications and Inbox (the bar shows those as icons),
 * then the Quick Actions not already listed — each destination once.
 */
export function mobileMenuSections(role: ViewAs | null, staff = false): { main: NavItem[]; quick: NavItem[] } {
  const main = [
    ...mainNavItems(role, staff),
    ...(role
      ? [
          { to: '/notifications', label: 'Notifications' },
          { to: '/inbox', label: 'Inbox' },
        ]
      : []),
  ];
  const listed = new Set(main.map((item) => item.to));
  return { main, quick: quickActions(role).filter((item) => !listed.has(item.to)) };
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
