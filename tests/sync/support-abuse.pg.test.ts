import { expect, test } from 'vitest';
import { prepareDocument } from '../../src/db/index.ts';
import { syncTestFixture } from './sync-fixture.ts';
import { eventually, insertDeals, newId } from './sync-harness.ts';

// What an ordinary account could do to the support desk by writing tickets through sync (real server,
// real RxDB clients): choose its own priority, and file disputes that skip the free plan's limit.

const sync = syncTestFixture();

const serverTicket = async (id: string) =>
  (await sync.server.db.pool.query('select priority, kind from public.support_tickets where id = $1', [id])).rows[0] as
    { priority: string; kind: string } | undefined;

test('the plan decides the priority: a free user sending high gets normal, a Pro user sending low gets high', async () => {
  const free = await sync.server.createUser({ role: 'creator' });
  const pro = await sync.server.createUser({ role: 'brand' });
  await sync.server.db.asService((tx) =>
    tx.query(`update public.profiles set pro_tier = 'premium', pro_since = now() where id = $1`, [pro.id]),
  );
  const f = await sync.client(free, ['support_tickets']);
  const p = await sync.client(pro, ['support_tickets']);
  await Promise.all([f, p].map((x) => x.replication.awaitInitialSync()));

  const freeId = newId();
  await f.db.support_tickets.insert(
    prepareDocument('support_tickets', {
      id: freeId,
      user_id: free.id,
      subject: 'Urgent!!!',
      message: 'Answer me first',
      priority: 'high',
    }),
  );
  const proId = newId();
  await p.db.support_tickets.insert(
    prepareDocument('support_tickets', {
      id: proId,
      user_id: pro.id,
      subject: 'Invoice',
      message: 'A question',
      priority: 'low',
    }),
  );
  await eventually(async () => (await serverTicket(freeId)) && (await serverTicket(proId)));
  expect(await serverTicket(freeId)).toEqual({ priority: 'normal', kind: 'question' });
  expect(await serverTicket(proId)).toEqual({ priority: 'high', kind: 'question' });
  // Each device learns the server's priority on its next pull.
  await eventually(async () => (await f.db.support_tickets.findOne(freeId).exec())?.priority === 'normal' || null);
  await eventually(async () => (await p.db.support_tickets.findOne(proId).exec())?.priority === 'high' || null);
  for (const x of [f, p]) await sync.closeClient(x);
});

test('a dispute ticket written through sync is refused, so it cannot skip the 3-open-tickets limit', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const stranger = await sync.server.createUser({ role: 'creator' });
  const [dealId] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  const b = await sync.client(brand, ['support_tickets']);
  const s = await sync.client(stranger, ['support_tickets']);
  await Promise.all([b, s].map((x) => x.replication.awaitInitialSync()));

  // The free plan's three open questions.
  for (let i = 0; i < 3; i++) {
    await b.db.support_tickets.insert(
      prepareDocument('support_tickets', { id: newId(), user_id: brand.id, subject: `Q${i}`, message: 'A question' }),
    );
  }
  await eventually(
    async () =>
      (
        await sync.server.db.pool.query(`select count(*)::int as n from public.support_tickets where user_id = $1`, [
          brand.id,
        ])
      ).rows[0].n === 3 || null,
  );

  // A fourth as "dispute" on the brand's own deal, and one by someone with no part in the deal.
  const ownDispute = newId();
  await b.db.support_tickets.insert(
    prepareDocument('support_tickets', {
      id: ownDispute,
      user_id: brand.id,
      subject: 'Dispute: please look',
      message: 'Not really a dispute',
      kind: 'dispute',
      deal_id: dealId,
    }),
  );
  const strangerDispute = newId();
  await s.db.support_tickets.insert(
    prepareDocument('support_tickets', {
      id: strangerDispute,
      user_id: stranger.id,
      subject: 'Dispute: their deal',
      message: 'I am not in this deal',
      kind: 'dispute',
      deal_id: dealId,
    }),
  );
  const refusal = {
    code: 'dispute_from_deal',
    message: "Disputes are opened from the deal's payment panel, by its brand or creator.",
  };
  expect(await eventually(async () => (await b.db.support_tickets.findOne(ownDispute).exec())?.sync_rejection)).toEqual(
    refusal,
  );
  expect(
    await eventually(async () => (await s.db.support_tickets.findOne(strangerDispute).exec())?.sync_rejection),
  ).toEqual(refusal);
  expect(await serverTicket(ownDispute)).toBeUndefined();
  expect(await serverTicket(strangerDispute)).toBeUndefined();
  for (const x of [b, s]) await sync.closeClient(x);
});

test("whoever writes it, a dispute is opened by one of the deal's two sides", async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const applicant = await sync.server.createUser({ role: 'creator' });
  const [dealId] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  const fileDispute = (userId: string) =>
    sync.server.db.asService((tx) =>
      tx.query(
        `insert into public.support_tickets (id, user_id, subject, message, priority, kind, deal_id)
         values (gen_random_uuid(), $1, 'Dispute: Deal 1', 'The work was not delivered', 'high', 'dispute', $2)`,
        [userId, dealId],
      ),
    );
  await expect(fileDispute(applicant.id)).rejects.toMatchObject({ message: 'not_a_participant' });
  await expect(fileDispute(brand.id)).resolves.toMatchObject({ rowCount: 1 });
});
