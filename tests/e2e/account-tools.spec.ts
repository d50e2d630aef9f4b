import fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { conversationIdFor } from '../../src/domain/conversation-id.ts';
import { SignInPage } from './pages/auth-pages.ts';
import { InboxPage } from './pages/inbox-page.ts';
import { seedAcceptedApplication, seedDeals, userId } from './pages/deals-page.ts';
import { withE2eDatabase } from './support/e2e-server-info.ts';
import { expect, test } from './support/fixtures.ts';

// The account tools people expect, on the built app and the real server: export my data, block and
// unblock a person, report a deal, and delete my account (refused while a deal is in progress).

// Several signed-in devices on a shared machine.
test.slow();

/** The names of this device's IndexedDB databases that belong to the user. */
function localDatabases(page: Page, id: string): Promise<string[]> {
  return page.evaluate(
    async (user) => (await indexedDB.databases()).map((d) => d.name ?? '').filter((name) => name.includes(user)),
    id,
  );
}

test('Settings → Privacy downloads my data as one JSON file', async ({ openAs, newAccount }) => {
  const creator = await newAccount('creator', { fullName: 'Export Creator' });
  const { page } = await openAs(creator, '/settings?section=privacy');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^pacta-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await fs.readFile((await download.path())!, 'utf8')) as Record<string, unknown>;
  expect(data).toMatchObject({
    format: 'pacta-export/1',
    account: { email: creator.email },
    profile: { full_name: 'Export Creator' },
  });
});

test('a creator blocks a brand from its profile: the brand cannot message them; Unblock in Settings ends it', async ({
  openAs,
  newAccount,
}) => {
  const brand = await newAccount('brand', { fullName: 'Pushy Brand' });
  const creator = await newAccount('creator', { fullName: 'Calm Creator' });
  const [brandId, creatorId] = [await userId(brand.email), await userId(creator.email)];
  // They talked before.
  const conversationId = conversationIdFor(brandId, creatorId, null);
  await withE2eDatabase((client) =>
    client.query(`insert into public.conversations (id, user1_id, user2_id) values ($1, $2, $3)`, [
      conversationId,
      brandId,
      creatorId,
    ]),
  );

  const { page } = await openAs(creator, `/profile/${brandId}`);
  await page.getByRole('button', { name: 'Block' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Block Pushy Brand?' });
  await expect(dialog).toContainText('will not be able to message you or apply to your deals');
  await dialog.getByRole('button', { name: 'Block' }).click();
  await expect(page.getByRole('button', { name: 'Unblock' })).toBeVisible();

  // The server holds the block once it has synced, and refuses the brand's first message.
  await expect
    .poll(() =>
      withE2eDatabase(async (client) => {
        const { rows } = await client.query(
          `select 1 from public.saved_lists where user_id = $1 and kind = 'blocked_users' and $2 = any (items)`,
          [creatorId, brandId],
        );
        return rows.length;
      }),
    )
    .toBe(1);
  const brandDevice = await openAs(brand, `/inbox/${conversationId}`);
  await new InboxPage(brandDevice.page).write('Hello again?');
  await expect(brandDevice.page.getByText('Not sent: You cannot message this person.')).toBeVisible({
    timeout: 20_000,
  });
  // The creator no longer sees the conversation in their inbox.
  await page.goto('/inbox');
  await expect(page.getByText('No conversations yet.')).toBeVisible();

  await page.goto('/settings?section=privacy');
  const blocked = page.getByRole('region', { name: 'Blocked people' });
  await expect(blocked.getByRole('link', { name: 'Pushy Brand' })).toBeVisible();
  await blocked.getByRole('button', { name: 'Unblock Pushy Brand' }).click();
  await expect(blocked).toContainText('You have not blocked anyone.');
});

test('a creator reports a deal; it lands among their tickets as a report', async ({ openAs, newAccount }) => {
  const brand = await newAccount('brand', { fullName: 'Too Good Brand' });
  const creator = await newAccount('creator');
  const [deal] = await seedDeals(brand.email, ['Free money giveaway']);
  const { page } = await openAs(creator, `/deals/${deal!.id}`);
  await page.getByRole('button', { name: 'Report deal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report this deal' });
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Choose what is wrong.');
  await dialog.getByRole('radio', { name: 'Scam or fraud' }).check();
  await dialog.getByRole('textbox', { name: /What happened/ }).fill('They asked for my card number.');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Pacta staff will look into it')).toBeVisible();
  await page.goto('/support');
  await expect(page.getByText('Report: Scam or fraud (deal "Free money giveaway")')).toBeVisible({ timeout: 20_000 });
});

test.describe('delete my account', () => {
  // Three refusals the journey provokes: the wrong password (400); a pull or change stream the device
  // had under way as the account went (401: its token names nobody now); and the sign-out's call to
  // end a session the deletion already ended on the server (403). The device's copy is cleared all the same.
  test.use({ allowedConsoleErrors: [/Failed to load resource: the server responded with a status of (400|401|403)/] });

  test('deleting an account is refused while a deal is in progress, then deletes it, signs out and clears the device', async ({
    openAs,
    newAccount,
  }) => {
    const brand = await newAccount('brand');
    const creator = await newAccount('creator', { fullName: 'Leaving Creator' });
    const id = await userId(creator.email);
    const brandId = await userId(brand.email);
    // They talked: the brand keeps the conversation after the creator leaves.
    const conversationId = conversationIdFor(brandId, id, null);
    await withE2eDatabase(async (client) => {
      await client.query(`insert into public.conversations (id, user1_id, user2_id) values ($1, $2, $3)`, [
        conversationId,
        id,
        brandId,
      ]);
      await client.query(
        `insert into public.messages (id, conversation_id, sender_id, recipient_id, body)
         values (gen_random_uuid(), $1, $2, $3, 'Thanks for the brief!')`,
        [conversationId, id, brandId],
      );
    });
    const [deal] = await seedDeals(brand.email, ['Reel in progress']);
    await seedAcceptedApplication(deal!.id, creator.email);
    await withE2eDatabase((client) =>
      client.query(`update public.deals set status = 'in_progress' where id = $1`, [deal!.id]),
    );

    const { page } = await openAs(creator, '/settings?section=privacy');
    const card = page.getByRole('region', { name: 'Delete account' });
    await expect(card.getByRole('alert')).toContainText('Your account cannot be deleted yet');
    await expect(card).toContainText('A deal of yours is in progress. Complete or cancel it first.');
    await expect(card.getByRole('button', { name: 'Delete my account' })).toHaveCount(0);

    await withE2eDatabase((client) =>
      client.query(`update public.deals set status = 'completed' where id = $1`, [deal!.id]),
    );
    await page.reload();
    await card.getByRole('textbox', { name: 'Type DELETE to confirm' }).fill('delete');
    await card.getByLabel('Your password').fill(creator.password);
    await card.getByRole('button', { name: 'Delete my account' }).click();
    await expect(card.getByRole('alert')).toHaveText('Type DELETE to confirm.');
    await card.getByRole('textbox', { name: 'Type DELETE to confirm' }).fill('DELETE');
    await card.getByLabel('Your password').fill('not my password');
    await card.getByRole('button', { name: 'Delete my account' }).click();
    await expect(card.getByRole('alert')).toHaveText('Your password is incorrect.');
    expect(await localDatabases(page, id)).not.toEqual([]);

    await card.getByLabel('Your password').fill(creator.password);
    await card.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL(/\/auth\/signin/);
    await expect(page.getByText('Your account was deleted.')).toBeVisible();
    // An IndexedDB deletion another connection still blocks completes once that lets go.
    await expect.poll(() => localDatabases(page, id)).toEqual([]);

    // The e-mail and password no longer open anything.
    const signIn = new SignInPage(page);
    await signIn.signIn(creator.email, creator.password);
    await expect(page).toHaveURL(/\/auth\/signin/);

    // The brand still has the conversation, from "Deleted user", and can no longer write to it.
    const brandDevice = await openAs(brand, `/inbox/${conversationId}`);
    await expect(brandDevice.page.getByRole('heading', { name: 'Deleted user' })).toBeVisible();
    await expect(brandDevice.page.getByRole('list', { name: 'Messages with Deleted user' })).toContainText(
      'Thanks for the brief!',
    );
    await new InboxPage(brandDevice.page).write('Are you still there?');
    await expect(brandDevice.page.getByText('Not sent: This account was deleted.')).toBeVisible({ timeout: 20_000 });
  });
});
