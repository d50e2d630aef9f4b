import { randomBytes } from 'node:crypto';
import { expect, test } from './support/fixtures.ts';
import { setDeviceOffline } from './support/offline.ts';
import { seedDeals, userId } from './pages/deals-page.ts';
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

test('online, the search finds a deal the device does not hold, and it opens from the server', async ({
  newAccount,
  openAs,
}) => {
  const brand = await newAccount('brand');
  const creator = await newAccount('creator');
  const { context, page } = await openAs(creator, '/deals');
  const tag = word();
  // The device does not hold this deal: its pulls of the catalogue leave it out (as a device whose
  // catalogue holds only part of the marketplace would). The filter is in place before the deal exists.
  const title = `Glacier ${tag} expedition`;
  await context.route(/\/sync\/v1\/deals\/pull/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { documents: { title?: string }[] };
    body.documents = body.documents.filter((d) => d.title !== title);
    await route.fulfill({ response, json: body });
  });
  const [hidden] = await seedDeals(brand.email, [title], { niches: ['Outdoors'] });
  const search = new SearchPage(page, 'deals');
  await search.type(`glacier ${tag}`);
  const card = search.dealCard(`Glacier ${tag} expedition`);
  await expect(card.getByText('Online only')).toBeVisible();
  await expect(search.status).toHaveText('1 deal found, 1 of them online only.');
  await search.expectMarked(card, 'Glacier');

  await card.getByRole('link', { name: `Glacier ${tag} expedition` }).click();
  await expect(page).toHaveURL(`/deals/${hidden!.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Glacier ${tag} expedition` })).toBeVisible();
  await expect(page.getByText('Online only')).toBeVisible();
  // Back returns to the search, its text in the box.
  await page.goBack();
  await expect(search.box).toHaveValue(`glacier ${tag}`);
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
