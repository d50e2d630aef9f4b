import { randomBytes } from 'node:crypto';
import { expect, test } from './support/fixtures.ts';
import { setDeviceOffline } from './support/offline.ts';
import { seedDeals, userId, waitForSynced } from './pages/deals-page.ts';
import { SearchPage } from './pages/search-page.ts';
import { withE2eDatabase } from './support/e2e-server-info.ts';

// Words no other test's data holds, so the shared e2e database answers only this test's deals.
const word = () => `zq${randomBytes(4).toString('hex')}`;

test('offline, the search finds the deals on the device, says so, and keeps the query in the address', async ({
  newAccount,
  openAs,
}) => {
  const brand = await newAccount('brand');
  const tag = word();
  await seedDeals(brand.email, [`Kayak ${tag} weekend`, `Paddle ${tag} review`, 'Unrelated launch']);
  const creator = await newAccount('creator');
  const { context, page } = await openAs(creator, '/deals', { offlineReady: true });
  const search = new SearchPage(page, 'deals');

  await setDeviceOffline(context, new URL(page.url()).origin, true);
  await search.type(tag);
  // Typing writes the address, and the focus stays in the box.
  await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}`));
  await expect(search.box).toBeFocused();
  await expect(page.getByText(/You're offline: searching the [\d,]+ deals on this device\./)).toBeVisible();
  await expect(search.status).toHaveText('2 deals found.');
  const kayak = search.dealCard(`Kayak ${tag} weekend`);
  await expect(kayak.getByText('Available offline')).toBeVisible();
  await search.expectMarked(kayak, tag);

  // A second word narrows it; the shared address opens the same search.
  await search.box.pressSequentially(' kay');
  await expect(search.status).toHaveText('1 deal found.');
  // The word the index matched is marked whole.
  await search.expectMarked(kayak, 'Kayak');
  await expect(search.box).toBeFocused();
  await page.goto(`/deals?q=${tag}%20paddle`);
  await expect(search.box).toHaveValue(`${tag} paddle`);
  await expect(search.dealCard(`Paddle ${tag} review`)).toBeVisible();
  await expect(search.status).toHaveText('1 deal found.');
});

test('online, the search finds a deal outside the device; opening it keeps it, and it then opens offline', async ({
  newAccount,
  openAs,
}) => {
  const brand = await newAccount('brand');
  const creator = await newAccount('creator');
  const tag = word();
  const title = `Glacier ${tag} expedition`;
  // The creator's niche is Travel: deals in it rank first in the device's working set.
  await withE2eDatabase(async (client) =>
    client.query(`update public.profiles set niches = '{Travel}' where id = $1`, [await userId(creator.email)]),
  );
  const [outside] = await seedDeals(brand.email, [title], { niches: ['Outdoors'] });
  await seedDeals(brand.email, [`Lisbon ${tag} city guide`, `Porto ${tag} food tour`], { niches: ['Travel'] });
  const { context, page } = await openAs(creator, '/deals', { offlineReady: true });
  // This device keeps a working set of two deals (a device setting): the server fills it with the
  // creator's Travel deals, and the Outdoors deal leaves the device.
  await page.evaluate(() => localStorage.setItem('pacta-device-deals', '2'));
  await page.reload();
  await waitForSynced(page);

  const search = new SearchPage(page, 'deals');
  await search.type(`glacier ${tag}`);
  const card = search.dealCard(title);
  await expect(card.getByText('Online only')).toBeVisible();
  await expect(search.status).toHaveText('1 deal found, 1 of them online only.');
  await search.expectMarked(card, 'Glacier');

  // Opening it shows the server's copy at once, and keeps the deal on the device: it becomes local.
  await card.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(`/deals/${outside!.id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByText('Online only')).toBeHidden();

  // Offline, the search finds it on the device, and it opens.
  await setDeviceOffline(context, new URL(page.url()).origin, true);
  await page.goBack();
  await expect(search.box).toHaveValue(`glacier ${tag}`);
  await expect(page.getByText(/You're offline: searching the [\d,]+ deals on this device\./)).toBeVisible();
  await expect(card.getByText('Available offline')).toBeVisible();
  await card.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByText('Online only')).toBeHidden();
});

test('a brand finds a creator by niche and by name', async ({ newAccount, openAs }) => {
  const tag = word();
  const creator = await newAccount('creator', { fullName: `Quillon ${tag}` });
  const creatorId = await userId(creator.email);
  await withE2eDatabase((client) =>
    client.query(
      `update public.profiles set niches = '{Gaming,Pets}', region = 'Iceland', followers = 42000 where id = $1`,
      [creatorId],
    ),
  );
  const brand = await newAccount('brand');
  const { page } = await openAs(brand, '/deals');
  const search = new SearchPage(page, 'creators');

  // By niche: Gaming, and a name part among the Gaming creators.
  await page.getByText('Niches', { exact: true }).click();
  await page.getByRole('group', { name: 'Niches' }).getByRole('button', { name: 'Gaming' }).click();
  await search.type(tag);
  const card = search.creatorCard(`Quillon ${tag}`);
  await expect(card).toBeVisible();
  await search.expectMarked(card, tag);
  await expect(page).toHaveURL(/niches=Gaming/);
  await page.getByRole('group', { name: 'Niches' }).getByRole('button', { name: 'Pets' }).click();
  await expect(card).toBeVisible();

  // By name alone, from a fresh page (the address carries the search).
  await page.goto(`/deals?q=quillon%20${tag}`);
  await expect(search.creatorCard(`Quillon ${tag}`)).toBeVisible();
  await search.expectMarked(search.creatorCard(`Quillon ${tag}`), 'Quillon');
  await expect(search.status).toHaveText('1 creator found.');
});
