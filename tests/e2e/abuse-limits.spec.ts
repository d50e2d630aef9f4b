import { createConfirmedAccount } from './pages/auth-mailbox.ts';
import { seedDeals, signIn, userId, waitForSynced } from './pages/deals-page.ts';
import { withE2eDatabase } from './support/e2e-server-info.ts';
import { expect, test } from './support/console-errors.ts';

// Where a user meets the abuse limits, the reason is on the screen: the invite panel past the hourly
// invitation limit, and the social-links and picture fields with their rules.

test('past 20 invitations in an hour, the next one is refused and the invite panel says why', async ({
  page,
  request,
}) => {
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: 'Flood Brand' });
  const creator = await createConfirmedAccount(request, { role: 'creator', fullName: 'Ivy Invitee' });
  await seedDeals(brand.email, ['Spring launch']);
  const brandId = await userId(brand.email);
  // The brand has already sent 20 invitation notices this hour.
  await withE2eDatabase((client) =>
    client.query(
      `insert into pacta_private.invitation_notices (brand_id, deal_id, creator_id)
       select $1, gen_random_uuid(), gen_random_uuid() from generate_series(1, 20)`,
      [brandId],
    ),
  );
  await signIn(page, brand);
  await waitForSynced(page);
  const creatorId = await userId(creator.email);
  await page.goto(`/creator/${creatorId}`);
  await page.getByRole('button', { name: 'Invite to Campaign' }).click();
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'You have sent 20 invitations in the last hour.' }),
  ).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('invited-to')).toHaveCount(0);
  const notices = await withE2eDatabase((client) =>
    client.query(
      `select count(*)::int as n from public.notifications where type = 'campaign_invite' and user_id = $1`,
      [creatorId],
    ),
  );
  expect(notices.rows[0].n).toBe(0);
});

test('the social-links form states the https rule and refuses a javascript: link; the picture field states its rule', async ({
  page,
  request,
}) => {
  const creator = await createConfirmedAccount(request, { role: 'creator', fullName: 'Lina Links' });
  await signIn(page, creator);
  await page.goto('/settings');
  await expect(page.getByText('Cropped to a square and stored on Pacta only.', { exact: false })).toBeVisible();
  const social = page.locator('#social');
  await expect(social.getByText('Links start with https://.')).toBeVisible();
  const instagram = social.getByRole('textbox', { name: /^Instagram/ });
  await instagram.fill('javascript:alert(document.cookie)');
  await social.getByRole('button', { name: 'Save links' }).click();
  await expect(social.getByText('Enter a full link starting with https://')).toBeVisible();
  await instagram.fill('https://instagram.com.evil.example/lina');
  await expect(social.getByText('Verified', { exact: true })).toHaveCount(0);
  await instagram.fill('https://www.instagram.com/lina');
  await expect(social.getByText('Verified', { exact: true })).toBeVisible();
});
