import { chromium } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
const base = 'http://127.0.0.1:4400';
const who = process.argv[2]; const deal = process.argv[3];
const routes = ['/', '/auth/signin', '/auth/signup', '/forgot-password', '/reset-password', '/dashboard', '/settings', '/settings?section=security','/settings?section=privacy', '/upgrade', '/pro', '/pricing', '/pro/success', '/admin', '/admin/ledger', '/earnings', '/growth', '/analytics', '/campaign-brief-builder', '/suggestions', '/performance', '/brand-matching', '/content-calendar', '/referrals/leaderboard', '/referrals/payouts', '/deals', `/deals/${deal}`, `/deals/${deal}/edit`, '/deals/new', '/swipe', '/my-deals', '/profile', '/inbox', '/inbox/new', '/notifications', '/support', '/support/new', '/about', '/contact', '/careers', '/blog', '/blog/pricing-your-first-sponsorship', '/commission-policy', '/terms', '/privacy', '/cookies', '/no-such-page'];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await ctx.newPage();
if (who !== 'none') {
  await page.goto(base + '/auth/signin');
  await page.getByLabel('Email', { exact: true }).fill(`${who}@pacta.dev`);
  await page.getByLabel('Password', { exact: true }).fill('pacta-demo-2026');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/dashboard/, { timeout: 60000 });
  await page.waitForTimeout(5000);
}
for (const r of routes) {
  await page.goto(base + r);
  await page.waitForTimeout(2500);
  const res = await new AxeBuilder({ page }).analyze();
  const bad = res.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length) console.log(who, r, JSON.stringify(bad.map((v) => ({ id: v.id, n: v.nodes.length, t: v.nodes.slice(0,2).map((n) => n.target.join(' ')) }))));
}
console.log('done', who);
await browser.close();
