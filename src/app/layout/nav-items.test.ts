import { expect, test } from 'vitest';
import { menuRole, passesRoleCheck } from '../../lib/session/auth-context.ts';
import { FOOTER_COLUMNS, mainNavItems, mobileMenuSections, quickActions } from './nav-items.ts';

const labels = (items: { label: string }[]) => items.map((i) => i.label);

test('the navigation bar per role', () => {
  expect(labels(mainNavItems(null))).toEqual(['Sign In', 'Sign Up']);
  expect(labels(mainNavItems('brand'))).toEqual(['Deals', 'Dashboard', 'Profile', 'Settings', 'Support']);
  expect(labels(mainNavItems('creator'))).toEqual([
    'Browse Deals',
    'Dashboard',
    'Earnings',
    'Profile',
    'Settings',
    'Support',
  ]);
  expect(mainNavItems('creator').find((i) => i.label === 'Earnings')?.to).toBe('/earnings');
  expect(mainNavItems('brand').map((i) => i.to)).toEqual([
    '/deals',
    '/dashboard',
    '/profile/me',
    '/settings',
    '/support',
  ]);
});

test('staff have their own home first in the bar and the mobile menu, in either view', () => {
  expect(mainNavItems('brand', true)[0]).toEqual({ to: '/admin', label: 'Staff' });
  expect(labels(mobileMenuSections('creator', true).main)).toContain('Staff');
  expect(labels(mainNavItems('creator'))).not.toContain('Staff');
  // Their creator view's row has no room for Earnings beside the view toggle; the menu keeps it.
  expect(labels(mainNavItems('creator', true))).not.toContain('Earnings');
  expect(labels(mobileMenuSections('creator', true).quick)).toContain('Earnings');
});

test('an admin sees the menu of the chosen view; nobody has a menu role while signed out or loading', () => {
  expect(menuRole({ status: 'signed_in', role: 'admin', viewAs: 'brand' })).toBe('brand');
  expect(menuRole({ status: 'signed_in', role: 'admin', viewAs: 'creator' })).toBe('creator');
  expect(menuRole({ status: 'signed_in', role: 'creator', viewAs: 'brand' })).toBe('creator');
  expect(menuRole({ status: 'loading', role: 'brand', viewAs: 'brand' })).toBeNull();
  expect(menuRole({ status: 'signed_out', role: null, viewAs: 'brand' })).toBeNull();
});

test('admin passes every role check; others only their own', () => {
  expect(passesRoleCheck('admin', ['brand'])).toBe(true);
  expect(passesRoleCheck('admin', ['creator'])).toBe(true);
  expect(passesRoleCheck('brand', ['brand'])).toBe(true);
  expect(passesRoleCheck('creator', ['brand'])).toBe(false);
  expect(passesRoleCheck(null, ['brand', 'creator'])).toBe(false);
});

test('quick actions fit the role, and the footer has the three exact columns', () => {
  expect(labels(quickActions('brand'))).toContain('Create Deal');
  expect(labels(quickActions('creator'))).toContain('Swipe Deals');
  expect(FOOTER_COLUMNS.map((c) => [c.heading, labels(c.links)])).toEqual([
    ['Company', ['About', 'Contact', 'Careers', 'Blog']],
    ['Support', ['Help Center', 'Terms', 'Privacy', 'Cookies']],
    ['Legal', ['Commission Policy', 'Referral Program']],
  ]);
});

test('the mobile menu lists every destination once (Inbox and Notifications not twice)', () => {
  for (const role of [null, 'brand', 'creator'] as const) {
    const { main, quick } = mobileMenuSections(role);
    const all = [...main, ...quick].map((i) => i.to);
    expect(new Set(all).size).toBe(all.length);
  }
  expect(labels(mobileMenuSections('creator').quick)).toEqual(['Swipe Deals', 'My Deals']);
  expect(labels(mobileMenuSections('creator').main)).toContain('Earnings');
  expect(labels(mobileMenuSections('brand').main)).toContain('Inbox');
});
