import { expect, test } from 'vitest';
import { prepareDocument } from '../../src/db/index.ts';
import { draftFieldsOf, editDraftField, type DraftFields } from '../../src/domain/brief-draft.ts';
import { syncTestFixture } from './sync-fixture.ts';
import { eventually, newId } from './sync-harness.ts';

// Drafts that follow their author across devices and blind reviews, through real RxDB clients and
// the real sync server.

const sync = syncTestFixture();

test('two devices of one brand edit different fields of a draft offline: both edits reach both devices', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const phone = await sync.client(brand, ['drafts']);
  const laptop = await sync.client(brand, ['drafts']);
  const id = newId();
  const start = editDraftField({}, 'title', 'Trail shoes', 1_000, 'Chrome on Android');
  await phone.db.drafts.insert(
    prepareDocument('drafts', {
      id,
      user_id: brand.id,
      kind: 'campaign_brief',
      title: 'Trail shoes',
      payload: { fields: start },
    }),
  );
  await eventually(() => laptop.db.drafts.findOne(id).exec());

  phone.network.online = false;
  laptop.network.online = false;
  const edit = async (device: typeof phone, name: string, value: unknown, deviceName: string) => {
    const doc = (await device.db.drafts.findOne(id).exec())!;
    const fields: DraftFields = editDraftField(draftFieldsOf(doc.payload), name, value, Date.now(), deviceName);
    await doc.incrementalPatch({ payload: { fields }, title: String(fields.title?.value ?? '') });
  };
  await edit(phone, 'goals', 'Reach trail runners', 'Chrome on Android');
  await edit(laptop, 'budget', '400', 'Chrome on Linux');
  phone.network.online = true;
  laptop.network.online = true;
  phone.replication.reSync();
  laptop.replication.reSync();

  const bothEdits = async (device: typeof phone) => {
    const fields = draftFieldsOf((await device.db.drafts.findOne(id).exec())?.payload);
    return (
      fields.goals?.value === 'Reach trail runners' &&
      fields.budget?.value === '400' &&
      fields.title?.value === 'Trail shoes'
    );
  };
  await eventually(async () => {
    phone.replication.reSync();
    laptop.replication.reSync();
    return (await bothEdits(phone)) && (await bothEdits(laptop));
  });
  const { rows } = await sync.server.db.pool.query(`select payload from public.drafts where id = $1`, [id]);
  expect(Object.keys(draftFieldsOf(rows[0].payload)).sort()).toEqual(['budget', 'goals', 'title']);
});

test("a review stays on its author's device until the other side writes; then both devices hold both", async () => {
  const brand = await sync.server.createUser({ role: 'brand', fullName: 'Acme' });
  const creator = await sync.server.createUser({ role: 'creator', fullName: 'Casey' });
  const dealId = newId();
  await sync.server.db.asService(async (tx) => {
    await tx.query(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches) values ($1, $2, 'Trail', 'Brief', 50000, '{Fitness}')`,
      [dealId, brand.id],
    );
    await tx.query(`insert into public.applications (id, deal_id, creator_id) values ($1, $2, $3)`, [
      newId(),
      dealId,
      creator.id,
    ]);
    await tx.query(`update public.applications set status = 'accepted' where deal_id = $1`, [dealId]);
    await tx.query(`update public.deals set status = 'completed' where id = $1`, [dealId]);
  });
  const brandDevice = await sync.client(brand, ['reviews']);
  const creatorDevice = await sync.client(creator, ['reviews']);
  const brandReview = newId();
  await brandDevice.db.reviews.insert(
    prepareDocument('reviews', {
      id: brandReview,
      deal_id: dealId,
      reviewer_id: brand.id,
      reviewee_id: creator.id,
      rating: 4,
      content: 'On brief',
    }),
  );
  await eventually(
    async () =>
      (await sync.server.db.pool.query('select 1 from public.reviews where id = $1', [brandReview])).rowCount === 1,
  );
  creatorDevice.replication.reSync();
  await creatorDevice.replication.awaitInSync();
  expect(await creatorDevice.db.reviews.find().exec()).toHaveLength(0);

  const creatorReview = newId();
  await creatorDevice.db.reviews.insert(
    prepareDocument('reviews', {
      id: creatorReview,
      deal_id: dealId,
      reviewer_id: creator.id,
      reviewee_id: brand.id,
      rating: 5,
      content: 'Fast payment',
    }),
  );
  const bothPublished = async (device: typeof brandDevice) => {
    const docs = await device.db.reviews.find().exec();
    return docs.length === 2 && docs.every((d) => d.published_at !== null);
  };
  await eventually(async () => (await bothPublished(brandDevice)) && (await bothPublished(creatorDevice)));
  const rating = await sync.server.db.pool.query('select rating from public.profiles where id = $1', [creator.id]);
  expect(Number(rating.rows[0].rating)).toBe(4);
});
