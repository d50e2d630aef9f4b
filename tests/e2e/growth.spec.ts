import { DashboardPage } from './pages/dashboard-page.ts';
import { confirmInDialog } from './pages/deal-detail-page.ts';
import { seedAcceptedApplication, seedDeals } from './pages/deals-page.ts';
import {
  LeaderboardPage,
  PayoutsPage,
  seedQualifiedReferrals,
  seedRewards,
  seedTopReferrers,
  setXp,
} from './pages/growth-pages.ts';
import { expect, test, type Account, type OpenAs } from './support/fixtures.ts';

// Growth (XP, levels, referrals, leaderboard, payouts) on the built app and the real server. Awards
// happen in Postgres; the screens follow through sync (XP, level, Level Up!) or ask the server
// (leaderboard), so these journeys watch pages that are never reloaded.

const run = Date.now().toString(36);

/** The account's dashboard on a device of its own, loaded and synced. */
async function openDashboard(openAs: OpenAs, account: Account) {
  const { context, page } = await openAs(account, '/dashboard');
  const dashboard = new DashboardPage(page);
  await dashboard.expectLoaded(account.fullName);
  return { context, page, dashboard };
}

const leaderboardCard = (dashboard: DashboardPage) => dashboard.section('Leaderboard');

test('a brand completes a deal with a creator: both see XP and level change live, and the creator sees Level Up!', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(120_000);
  const brand = await newAccount('brand', { fullName: `Completing Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Levelling Creator ${run}` });
  const [deal] = await seedDeals(brand.email, [`Growth deal ${run}`], { amountCents: 40_000 });
  await seedAcceptedApplication(deal!.id, creator.email); // the application pays DEAL_APPLY: 25 XP

  const c = await openDashboard(openAs, creator);
  const b = await openDashboard(openAs, brand);
  await expect(leaderboardCard(c.dashboard).getByTestId('leaderboard-xp')).toHaveText('25');
  await expect(leaderboardCard(c.dashboard).getByTestId('leaderboard-level')).toHaveText('1');
  await expect(c.page.getByText('75 XP to level 2')).toBeVisible();
  await expect(leaderboardCard(b.dashboard).getByTestId('leaderboard-xp')).toHaveText('0');
  await expect(c.page.getByText('Level Up!')).toHaveCount(0);
  // Free users see a sponsored banner on the dashboard.
  await expect(c.page.getByRole('complementary', { name: 'Sponsored' })).toBeVisible();

  // The brand completes the deal through the app (in-app navigation, the dashboard is not reloaded).
  await b.page.evaluate((path) => {
    history.pushState({}, '', path);
    dispatchEvent(new PopStateEvent('popstate'));
  }, `/deals/${deal!.id}/edit`);
  await b.page.getByRole('button', { name: 'Mark as Completed' }).click();
  await confirmInDialog(b.page, 'Mark as Completed', ['will be recorded as having done the work']);
  await expect(b.page.getByRole('button', { name: 'Deal Marked as Completed' })).toBeVisible();
  await b.page.getByRole('banner').getByRole('link', { name: 'Dashboard' }).click();
  // DEAL_COMPLETE 100 + FIRST_DEAL 300 for each side.
  await expect(leaderboardCard(b.dashboard).getByTestId('leaderboard-xp')).toHaveText('400', { timeout: 30_000 });
  await expect(leaderboardCard(b.dashboard).getByTestId('leaderboard-level')).toHaveText('3');

  // The creator's open dashboard follows: 25 → 425 XP, level 1 → 3, and the server's 'Level Up!'.
  await expect(leaderboardCard(c.dashboard).getByTestId('leaderboard-xp')).toHaveText('425', { timeout: 30_000 });
  await expect(leaderboardCard(c.dashboard).getByTestId('leaderboard-level')).toHaveText('3');
  await expect(c.page.getByText('Level 3', { exact: false }).first()).toBeVisible();
  const levelUp = c.page.getByRole('status').filter({ hasText: 'Level Up!' });
  await expect(levelUp).toContainText('You reached level 3.');
  await levelUp.getByRole('button', { name: 'Dismiss' }).click();
  await expect(levelUp).toHaveCount(0);
  await Promise.all([b.context.close(), c.context.close()]);
});

test('a creator one XP short of a level crosses it with one application and sees Level Up!', async ({
  newAccount,
  openAs,
}) => {
  const brand = await newAccount('brand');
  const creator = await newAccount('creator', { fullName: `Threshold Creator ${run}` });
  await setXp(creator.email, 99);
  const [deal] = await seedDeals(brand.email, [`Threshold deal ${run}`]);
  const c = await openDashboard(openAs, creator);
  await expect(c.page.getByText('1 XP to level 2')).toBeVisible();
  await expect(c.page.getByText('Level Up!')).toHaveCount(0);
  await c.page.goto(`/deals/${deal!.id}`);
  await c.page.getByRole('button', { name: 'Apply to this deal' }).click();
  await c.page.waitForURL('**/dashboard', { timeout: 15_000 });
  await expect(c.page.getByRole('status').filter({ hasText: 'Level Up!' })).toContainText('You reached level 2.', {
    timeout: 30_000,
  });
  await expect(leaderboardCard(c.dashboard).getByTestId('leaderboard-xp')).toHaveText('124');
  await c.context.close();
});

test("leaderboard: periods, the signed-in user's row and rank, the dashboard card, and the last board offline", async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(120_000);
  const me = await newAccount('creator', { fullName: `Leader ${run}` });
  const rival = await newAccount('brand', { fullName: `Rival ${run}` });
  // Shown by first name and last initial (no username yet), never by the full name.
  const rivalShown = `Rival ${run[0]!.toUpperCase()}.`;
  await seedQualifiedReferrals(me.email, 3, 2); // this week
  await seedQualifiedReferrals(me.email, 2, 60); // all time only
  await seedQualifiedReferrals(rival.email, 4, 20); // this month

  const { context, page, dashboard } = await openDashboard(openAs, me);
  await expect(leaderboardCard(dashboard).getByTestId('leaderboard-rank')).toHaveText(/^#\d+$/, { timeout: 15_000 });
  await page.getByRole('link', { name: 'See the leaderboard' }).click();
  const board = new LeaderboardPage(page);
  await expect(board.heading).toBeVisible();
  await expect(board.table.getByRole('columnheader')).toHaveText(['Rank', 'Username', 'Referrals', 'Pro', 'XP']);

  // All time (the default): 5 of mine, 4 of the rival's; my row is highlighted.
  await expect(board.ownRow).toContainText(`Leader ${run[0]!.toUpperCase()}.`);
  await expect(board.table).not.toContainText(`Rival ${run}`);
  await expect(board.ownRow.getByRole('cell').nth(2)).toHaveText('5');
  await expect(board.row(rivalShown).getByRole('cell').nth(2)).toHaveText('4');
  const allRank = Number((await board.ownRow.getByRole('cell').nth(0).textContent())!.slice(1));
  const rivalAllRank = Number((await board.row(rivalShown).getByRole('cell').nth(0).textContent())!.slice(1));
  expect(allRank).toBeLessThan(rivalAllRank);

  await board.period('This month').click();
  await expect(board.period('This month')).toHaveAttribute('aria-pressed', 'true');
  await expect(board.ownRow.getByRole('cell').nth(2)).toHaveText('3');
  await expect(board.row(rivalShown).getByRole('cell').nth(2)).toHaveText('4');
  const monthRank = Number((await board.ownRow.getByRole('cell').nth(0).textContent())!.slice(1));
  const rivalMonthRank = Number((await board.row(rivalShown).getByRole('cell').nth(0).textContent())!.slice(1));
  expect(rivalMonthRank).toBeLessThan(monthRank);

  await board.period('This week').click();
  await expect(board.ownRow.getByRole('cell').nth(2)).toHaveText('3');
  await expect(board.ownRank).toHaveCount(0); // in the top 50: the highlighted row is the rank

  // Offline: the page says so and shows the last board seen, with when it was seen.
  await context.setOffline(true);
  await board.period('All time').click();
  await expect(board.offlineNotice).toContainText('the leaderboard needs a connection');
  await expect(board.offlineNotice).toContainText(/Showing the one you saw at .+ ago\)/);
  await expect(board.ownRow.getByRole('cell').nth(2)).toHaveText('5');
  await context.setOffline(false);
  await expect(board.offlineNotice).toHaveCount(0);
  await context.close();
});

test('leaderboard: a member outside the top 50 sees their rank below the table', async ({ newAccount, openAs }) => {
  const outsider = await newAccount('creator', { fullName: `Outsider ${run}` });
  await seedTopReferrers(51, 1);
  const { context, page } = await openDashboard(openAs, outsider);
  await page.getByRole('link', { name: 'See the leaderboard' }).click();
  const board = new LeaderboardPage(page);
  await board.period('This week').click();
  await expect(board.table.locator('tbody tr')).toHaveCount(50);
  await expect(board.ownRow).toHaveCount(0);
  await expect(board.ownRank).toContainText(/Your rank: #(5[2-9]|[6-9]\d|\d{3,}) with 0 qualified referrals/);
  await context.close();
});

test('payout history: All, Pending and Paid over the seeded rewards, Type, Amount, Status, Date, Back to Dashboard', async ({
  newAccount,
  openAs,
}) => {
  const creator = await newAccount('creator', { fullName: `Earner ${run}` });
  await seedRewards(creator.email, [
    { type: 'pro_subscription', cents: 1_000, status: 'paid', daysAgo: 40 },
    { type: 'deal_earnings_share', cents: 1_250, status: 'pending', daysAgo: 5 },
    { type: 'pro_subscription', cents: 1_000, status: 'pending', daysAgo: 2 },
  ]);
  const { context, page } = await openDashboard(openAs, creator);
  await page.goto('/referrals/payouts');
  const payouts = new PayoutsPage(page);
  await expect(payouts.heading).toBeVisible();
  await expect(page.getByRole('table').getByRole('columnheader')).toHaveText(['Type', 'Amount', 'Status', 'Date']);
  await expect(payouts.filter('All')).toHaveAttribute('aria-pressed', 'true');
  await expect(payouts.rows).toHaveCount(3);
  // Newest first; underscores read as spaces.
  await expect(payouts.rows.nth(0).getByRole('cell').nth(0)).toHaveText('pro subscription');
  await expect(payouts.rows.nth(0).getByRole('cell').nth(1)).toHaveText('$10.00');
  await expect(payouts.rows.nth(0).getByRole('cell').nth(2)).toHaveText('Pending');
  await expect(payouts.rows.nth(1).getByRole('cell').nth(0)).toHaveText('deal earnings share');
  await expect(payouts.rows.nth(1).getByRole('cell').nth(1)).toHaveText('$12.50');

  await payouts.filter('Pending').click();
  await expect(payouts.rows).toHaveCount(2);
  await expect(payouts.rows.getByRole('cell').filter({ hasText: 'Paid' })).toHaveCount(0);

  await payouts.filter('Paid').click();
  await expect(payouts.rows).toHaveCount(1);
  const paidDate = new Date(Date.now() - 39 * 86_400_000).toLocaleDateString('en-US', { dateStyle: 'medium' });
  await expect(payouts.rows.nth(0).getByRole('cell')).toHaveText(['pro subscription', '$10.00', 'Paid', paidDate]);

  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await context.close();
});
