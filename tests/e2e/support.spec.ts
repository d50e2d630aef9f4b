import type { Page } from '@playwright/test';
import { blockingAxeViolations } from './support/axe.ts';
import {
  grantPro,
  openTicketCountOnServer,
  openTicketsOnServer,
  serverTicket,
  SupportPage,
} from './pages/support-page.ts';
import { expect, test, type NewAccount, type OpenAs, type Role } from './support/fixtures.ts';

// The support desk end to end: a ticket written offline reaches the staff queue live, staff and the
// asker talk in its thread, closing it removes the reply box; a Pro user's ticket is high priority
// whatever the form sent and goes above older normal ones.

// Switching the network back logs ERR_NETWORK_CHANGED for requests cut mid-way.
test.use({ allowedConsoleErrors: [/net::ERR_NETWORK_CHANGED/] });

/** A new account of the role on a device of its own, on its synced dashboard. */
async function signedIn(newAccount: NewAccount, openAs: OpenAs, role: Role, fullName: string) {
  const account = await newAccount(role, { fullName });
  const { context, page } = await openAs(account, '/dashboard');
  return { account, context, page, support: new SupportPage(page) };
}

async function waitForServiceWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

test('a ticket written offline reaches the staff queue live; staff reply, the creator answers, closing removes the reply box', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(180_000);
  const staff = await signedIn(newAccount, openAs, 'admin', 'Sam Staff');
  const creator = await signedIn(newAccount, openAs, 'creator', 'Olive Offline');
  try {
    // Staff watch the queue; it must update without a reload.
    await staff.support.goto();
    await expect(staff.support.heading).toHaveText('Support queue');
    // The count once the staff device holds every open ticket (the page may render before its query has).
    const openBefore = await openTicketCountOnServer();
    await expect(staff.page.getByTestId('count-open')).toHaveText(String(openBefore));
    // A subject of this attempt only: a retried test must not find the first attempt's ticket.
    const subject = `Payout missing after completion ${Date.now().toString(36)}`;

    await waitForServiceWorker(creator.page);
    await creator.support.goto();
    await creator.context.setOffline(true);
    let ticketId: string;
    try {
      ticketId = await creator.support.openTicket(subject, 'The deal was completed a week ago and nothing arrived.');
      await expect(creator.page.locator('.ticket-header').getByText('Waiting to sync')).toBeVisible();
      await creator.support.reply('Adding: it was the Summer launch deal.');
      // Nothing reached the server, and the ticket survives a reload with no network.
      await creator.page.reload();
      await expect(creator.support.heading).toHaveText(subject);
      await expect(creator.support.thread.getByText('Adding: it was the Summer launch deal.')).toBeVisible();
      await expect(creator.page.locator('.ticket-header').getByText('Waiting to sync')).toBeVisible();
      expect(await serverTicket(ticketId)).toBeUndefined();
    } finally {
      await creator.context.setOffline(false);
    }

    // Back online: the ticket lands, then its reply (parent before child).
    await expect(creator.page.locator('.ticket-header').getByText('Waiting to sync')).toHaveCount(0, {
      timeout: 30_000,
    });
    await expect.poll(async () => (await serverTicket(ticketId))?.replies, { timeout: 30_000 }).toBe(1);

    // Staff see it in the queue without reloading, with the asker's name, and the open count grew.
    const row = staff.support.row(subject);
    await expect(row).toBeVisible({ timeout: 30_000 });
    await expect(row).toContainText('Olive Offline');
    // The server's count, not openBefore + 1: the other worker's tests open tickets on the same server.
    await expect(async () => {
      const open = await openTicketCountOnServer();
      expect(open).toBeGreaterThan(openBefore);
      await expect(staff.page.getByTestId('count-open')).toHaveText(String(open), { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await row.click();
    await expect(staff.support.thread.getByText('Adding: it was the Summer launch deal.')).toBeVisible();
    await staff.support.reply('Sorry about that: the transfer is on its way today.');

    // The creator sees the staff reply, marked as staff, and answers.
    const staffReply = creator.support.thread
      .locator('li')
      .filter({ hasText: 'Sorry about that: the transfer is on its way today.' });
    await expect(staffReply).toBeVisible({ timeout: 30_000 });
    await expect(staffReply).toContainText('Pacta Staff');
    await creator.support.reply('Thanks, it arrived!');

    // Staff see the answer, then close the ticket: the creator's reply box goes away.
    await expect(staff.support.thread.getByText('Thanks, it arrived!')).toBeVisible({ timeout: 30_000 });
    await staff.support.closeTicket.click();
    await expect(staff.page.locator('.ticket-header').getByText('Closed', { exact: true })).toBeVisible();
    await expect(creator.support.replyBox).toHaveCount(0, { timeout: 30_000 });
    await expect(creator.page.locator('.ticket-header').getByText('Closed', { exact: true })).toBeVisible();
    await expect.poll(async () => (await serverTicket(ticketId))?.status).toBe('closed');
    // The asker may still reopen it (within 14 days of closing).
    await expect(creator.support.reopenTicket).toBeVisible();
    expect(await blockingAxeViolations(creator.page)).toEqual([]);
  } finally {
    await staff.context.close();
    await creator.context.close();
  }
});

test("a Pro creator's ticket lands as high priority and sorts above an older normal one", async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(120_000);
  const staff = await signedIn(newAccount, openAs, 'admin', 'Sam Staff');
  const brand = await signedIn(newAccount, openAs, 'brand', 'Nora Normal');
  const pro = await signedIn(newAccount, openAs, 'creator', 'Pia Pro');
  try {
    await brand.support.goto();
    const olderId = await brand.support.openTicket('Invoice address is wrong', 'Please correct our billing address.');
    await expect.poll(async () => (await serverTicket(olderId))?.priority, { timeout: 30_000 }).toBe('normal');

    await grantPro(pro.account.email);
    await pro.support.goto();
    await expect(pro.page.getByText('As a Pro member, your tickets are answered first.')).toBeVisible({
      timeout: 30_000,
    });
    await pro.support.newTicket.click();
    await expect(pro.support.priority).toContainText('Priority: high');
    await pro.page.goBack();
    const proId = await pro.support.openTicket('Brand has not confirmed delivery', 'Could you nudge them?');
    // The server files it high from the plan.
    await expect
      .poll(async () => await serverTicket(proId), { timeout: 30_000 })
      .toMatchObject({ priority: 'high', is_pro: true });
    await expect(pro.page.locator('.ticket-header').getByText('High priority')).toBeVisible({ timeout: 30_000 });
    await expect(pro.page.locator('.ticket-header').getByText('Pro', { exact: true })).toBeVisible();

    await staff.support.goto();
    await expect(staff.support.row('Brand has not confirmed delivery')).toBeVisible({ timeout: 30_000 });
    await expect(staff.support.row('Brand has not confirmed delivery')).toContainText('High priority');
    const subjects = await staff.support.queueSubjects();
    expect(subjects.indexOf('Brand has not confirmed delivery')).toBeLessThan(
      subjects.indexOf('Invoice address is wrong'),
    );
    expect(subjects.indexOf('Invoice address is wrong')).toBeGreaterThan(-1);
    expect(await blockingAxeViolations(staff.page)).toEqual([]);

    // The Pro filter narrows the queue to Pro tickets.
    await staff.page.getByLabel('Pro', { exact: true }).selectOption('pro');
    await expect(staff.support.row('Invoice address is wrong')).toHaveCount(0);
    await expect(staff.support.row('Brand has not confirmed delivery')).toBeVisible();
  } finally {
    await staff.context.close();
    await brand.context.close();
    await pro.context.close();
  }
});

test('a reply written offline to a ticket staff closed meanwhile shows why it was refused; a fourth open question on the free plan opens the upgrade dialog', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(150_000);
  const staff = await signedIn(newAccount, openAs, 'admin', 'Sam Staff');
  const creator = await signedIn(newAccount, openAs, 'creator', 'Fred Free');
  try {
    await creator.support.goto();
    const ticketId = await creator.support.openTicket('Cannot upload my avatar', 'The upload spins forever.');
    await expect.poll(async () => (await serverTicket(ticketId))?.status, { timeout: 30_000 }).toBe('open');

    await creator.context.setOffline(true);
    try {
      await creator.support.reply('It happens with PNG files too.');
      await staff.page.goto(`/support/${ticketId}`);
      await staff.support.closeTicket.click();
      await expect.poll(async () => (await serverTicket(ticketId))?.status, { timeout: 30_000 }).toBe('closed');
    } finally {
      await creator.context.setOffline(false);
    }
    const refused = creator.support.thread.locator('li').filter({ hasText: 'It happens with PNG files too.' });
    await expect(refused).toContainText(
      'This reply did not go through: This ticket is closed, so it takes no more replies.',
      { timeout: 30_000 },
    );
    await expect(creator.support.replyBox).toHaveCount(0);
    expect((await serverTicket(ticketId))?.replies).toBe(0);

    // Three open questions (the closed ticket does not count), then a fourth: the free plan's limit,
    // with the upgrade dialog.
    for (const n of ['one', 'two', 'three']) {
      await creator.support.goto();
      await creator.support.openTicket(`Question ${n}`, `Question ${n}, in detail.`);
    }
    await creator.support.goto();
    await expect(creator.support.myTickets.locator('li')).toHaveCount(4);
    await creator.support.newTicket.click();
    await creator.support.subject.fill('Question four');
    await creator.support.message.fill('Question four, in detail.');
    await creator.support.create.click();
    const dialog = creator.page.getByRole('dialog', { name: 'Upgrade to Pro' });
    await expect(dialog).toContainText('Pro users have no limit');
    expect(await blockingAxeViolations(creator.page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Not now' }).click();
    await expect(dialog).toHaveCount(0);
    const panel = creator.page.getByRole('alert').filter({ hasText: 'The ticket was not created' });
    await expect(panel).toContainText('The free plan allows 3 open tickets at a time.');
    await expect(panel.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(creator.page).toHaveURL(/\/support\/new$/);
  } finally {
    await staff.context.close();
    await creator.context.close();
  }
});

test("a ticket written offline that the server refuses for the free plan's limit opens the upgrade dialog on the ticket, with Retry", async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(120_000);
  const creator = await signedIn(newAccount, openAs, 'brand', 'Tess Twodevices');
  try {
    await waitForServiceWorker(creator.page);
    await creator.support.goto();
    await creator.context.setOffline(true);
    let ticketId: string;
    try {
      ticketId = await creator.support.openTicket('Written on the train', 'Offline question.');
      // Meanwhile the account's other device filed three open questions.
      await openTicketsOnServer(creator.account.email, ['From the laptop 1', 'From the laptop 2', 'From the laptop 3']);
    } finally {
      await creator.context.setOffline(false);
    }
    const dialog = creator.page.getByRole('dialog', { name: 'Upgrade to Pro' });
    await expect(dialog).toContainText('Pro users have no limit', { timeout: 30_000 });
    // Focus starts on the first action and Tab wraps inside the dialog.
    await expect(dialog.getByRole('link', { name: 'See Pro plans' })).toBeFocused();
    await creator.page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Not now' })).toBeFocused();
    await creator.page.keyboard.press('Tab');
    await expect(dialog.getByRole('link', { name: 'See Pro plans' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Not now' }).click();
    const panel = creator.page.getByRole('alert').filter({ hasText: 'This ticket was not sent' });
    await expect(panel).toContainText('The free plan allows 3 open tickets at a time.');
    await expect(creator.page.locator('.ticket-header').getByText('Not sent')).toBeVisible();
    await expect(creator.support.replyBox).toHaveCount(0);
    expect(await serverTicket(ticketId)).toBeUndefined();

    // Retry sends it again: refused again while three are open (the dialog comes back).
    await panel.getByRole('button', { name: 'Retry' }).click();
    await expect(dialog).toBeVisible({ timeout: 30_000 });
    expect(await serverTicket(ticketId)).toBeUndefined();
    // Escape closes it.
    await creator.page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  } finally {
    await creator.context.close();
  }
});
