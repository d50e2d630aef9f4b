import type { Browser, BrowserContext, Page } from '@playwright/test';
import { createConfirmedAccount } from './pages/auth-mailbox.ts';
import { seedDeals, signIn, waitForSynced } from './pages/deals-page.ts';
import { InboxPage, NotificationBell, seedApplication } from './pages/inbox-page.ts';
import { expect, test } from './support/console-errors.ts';

// Inbox, messages and notifications on the built app and the real server, two people in two browser
// contexts; offline through context.setOffline.

// Two signed-in people, each syncing a full session, on a shared machine: more than the default minute.
test.slow();

type Person = { context: BrowserContext; page: Page; account: { email: string; password: string; fullName: string } };

async function person(
  browser: Browser,
  baseURL: string | undefined,
  role: 'brand' | 'creator',
  fullName: string,
): Promise<Person> {
  const context = await browser.newContext({ baseURL });
  const account = await createConfirmedAccount(context.request, { role, fullName });
  const page = await context.newPage();
  await signIn(page, account);
  await waitForSynced(page);
  // The tests reload offline: the service worker must be active, so it controls the next page load
  // (as on a user's second visit); on a busy machine its install can outlast the first sync.
  await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state);
  return { context, page, account };
}

/** A brand's deal and a creator's pending application to it, both signed in and synced. */
async function dealWithApplicant(browser: Browser, baseURL: string | undefined, title: string) {
  const brand = await person(browser, baseURL, 'brand', `Brand ${title}`);
  const creator = await person(browser, baseURL, 'creator', `Creator ${title}`);
  const [deal] = await seedDeals(brand.account.email, [title]);
  await seedApplication(deal!.id, creator.account.email);
  return { brand, creator, deal: deal! };
}

test('a creator writes three messages offline; the brand sees them arrive in order, with the unread count; reading clears it on the other tab too', async ({
  browser,
  baseURL,
}) => {
  const { brand, creator, deal } = await dealWithApplicant(browser, baseURL, 'Trail shoes launch');
  try {
    // The creator opens the conversation from the deal ("Message brand", once applied).
    await creator.page.goto(`/deals/${deal.id}`);
    await creator.page.getByRole('link', { name: 'Message brand' }).click();
    await expect(creator.page).toHaveURL(/\/inbox\/[0-9a-f-]{36}$/);
    const conversationId = creator.page.url().split('/').pop()!;
    const creatorInbox = new InboxPage(creator.page);
    await expect(creator.page.getByRole('heading', { name: 'Brand Trail shoes launch' })).toBeVisible();
    await waitForSynced(creator.page);

    // The brand has the inbox open (and a second tab elsewhere).
    const brandInbox = new InboxPage(brand.page);
    await brandInbox.goto();
    const secondTab = await brand.context.newPage();
    const secondInbox = new InboxPage(secondTab);
    await secondInbox.goto();
    await expect(brandInbox.conversation('Creator Trail shoes launch')).toBeVisible();

    // Offline: three messages, pending with a clock, still there after a reload.
    await creator.context.setOffline(true);
    const sent = ['Hi! Thanks for accepting my pitch.', 'I can shoot on Saturday.', 'Draft by Monday?'];
    for (const body of sent) await creatorInbox.write(body);
    await expect(creatorInbox.pending()).toHaveCount(3);
    await creator.page.reload();
    await expect(creatorInbox.messages).toHaveCount(3);
    expect(await creatorInbox.bodies()).toEqual(sent);
    await expect(creatorInbox.pending()).toHaveCount(3);
    await expect(creatorInbox.pending().first().getByText('Pending')).toBeAttached();
    // Nothing reached the brand meanwhile.
    await expect(brandInbox.conversation('Creator Trail shoes launch').getByLabel(/unread/)).toHaveCount(0);

    // Back online: sent, in order; the brand's open inbox shows them without reloading.
    await creator.context.setOffline(false);
    await expect(creatorInbox.pending()).toHaveCount(0, { timeout: 20_000 });
    const item = brandInbox.conversation('Creator Trail shoes launch');
    await expect(item.getByLabel('3 unread')).toBeVisible({ timeout: 20_000 });
    await expect(item).toContainText('Draft by Monday?');
    await expect(secondInbox.conversation('Creator Trail shoes launch').getByLabel('3 unread')).toBeVisible();
    await expect(secondTab.getByRole('banner').locator('.unread-dot')).toBeVisible();

    await item.click();
    await expect(brand.page).toHaveURL(new RegExp(`/inbox/${conversationId}$`));
    await expect(brandInbox.messages).toHaveCount(3);
    expect(await brandInbox.bodies()).toEqual(sent);
    // Reading it clears the count here and on the second tab.
    await expect(item.getByLabel(/unread/)).toHaveCount(0);
    await expect(secondInbox.conversation('Creator Trail shoes launch').getByLabel(/unread/)).toHaveCount(0);
    await expect(secondTab.getByRole('banner').locator('.unread-dot')).toHaveCount(0);

    // The reply reaches the creator live, after the three.
    await brandInbox.write('Saturday works, thank you!');
    await expect(creatorInbox.messages).toHaveCount(4, { timeout: 20_000 });
    expect(await creatorInbox.bodies()).toEqual([...sent, 'Saturday works, thank you!']);
  } finally {
    await brand.context.close();
    await creator.context.close();
  }
});

test('both sides start the same conversation offline; after reconnecting there is one conversation holding both messages', async ({
  browser,
  baseURL,
}) => {
  const { brand, creator, deal } = await dealWithApplicant(browser, baseURL, 'Coffee grinder review');
  try {
    // The brand sees the application before going offline.
    await brand.page.goto(`/deals/${deal.id}`);
    const message = brand.page.getByRole('link', { name: 'Message Creator Coffee grinder review' });
    await expect(message).toBeVisible();
    await creator.page.goto(`/deals/${deal.id}`);
    await expect(creator.page.getByRole('link', { name: 'Message brand' })).toBeVisible();

    await brand.context.setOffline(true);
    await creator.context.setOffline(true);
    await message.click();
    await creator.page.getByRole('link', { name: 'Message brand' }).click();
    const brandInbox = new InboxPage(brand.page);
    const creatorInbox = new InboxPage(creator.page);
    await brandInbox.write('Hello from the brand');
    await creatorInbox.write('Hello from the creator');
    // Both derived the same conversation, each holding only its own message for now.
    expect(brand.page.url()).toBe(creator.page.url());

    await brand.context.setOffline(false);
    await creator.context.setOffline(false);
    for (const inbox of [brandInbox, creatorInbox]) {
      await expect(inbox.messages).toHaveCount(2, { timeout: 20_000 });
      await expect(inbox.pending()).toHaveCount(0);
      await inbox.goto();
      await expect(inbox.list.getByRole('listitem')).toHaveCount(1);
    }
    // Both devices agree on the order the server gave.
    await brandInbox.list.getByRole('link').click();
    await creatorInbox.list.getByRole('link').click();
    await expect(brandInbox.messages).toHaveCount(2);
    await expect(creatorInbox.messages).toHaveCount(2);
    expect(await brandInbox.bodies()).toEqual(await creatorInbox.bodies());
  } finally {
    await brand.context.close();
    await creator.context.close();
  }
});

test("the brand accepts the application; the creator's bell count rises live; Mark all read clears it; /notifications links to the deal", async ({
  browser,
  baseURL,
}) => {
  const { brand, creator, deal } = await dealWithApplicant(browser, baseURL, 'Yoga mat campaign');
  try {
    const bell = new NotificationBell(creator.page);
    await creator.page.goto('/dashboard');
    await expect(bell.count).toHaveCount(0);
    await bell.open();
    await expect(bell.dropdown.getByText('No notifications yet')).toBeVisible();
    // Escape closes the dropdown, and so does a click outside it.
    await creator.page.keyboard.press('Escape');
    await expect(bell.dropdown).toBeHidden();
    await bell.open();
    await creator.page.getByRole('heading', { level: 1 }).first().click();
    await expect(bell.dropdown).toBeHidden();

    await brand.page.goto(`/deals/${deal.id}`);
    await brand.page.getByRole('button', { name: 'Accept Creator Yoga mat campaign' }).click();

    await expect(bell.count).toHaveText('1', { timeout: 20_000 });
    await bell.open();
    await expect(bell.dropdown.getByRole('link', { name: /Application accepted/ })).toBeVisible();
    await bell.dropdown.getByRole('button', { name: 'Mark all read' }).click();
    await expect(bell.count).toHaveCount(0);

    await bell.dropdown.getByRole('link', { name: 'View all notifications' }).click();
    await expect(creator.page).toHaveURL(/\/notifications$/);
    const entry = creator.page.getByRole('main').getByRole('link', { name: /Application accepted/ });
    await expect(entry).toHaveAttribute('href', `/deals/${deal.id}`);
    await entry.click();
    await expect(creator.page).toHaveURL(new RegExp(`/deals/${deal.id}$`));
  } finally {
    await brand.context.close();
    await creator.context.close();
  }
});
