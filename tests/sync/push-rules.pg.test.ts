import { expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';
import { prepareDocument } from '../../src/db/index.ts';
import type { TestUser } from '../support/test-server.ts';
import { eventually, insertDeals, newId } from './sync-harness.ts';
import { syncTestFixture } from './sync-fixture.ts';

const sync = syncTestFixture();

type Doc = Record<string, unknown> & { id: string; _deleted: boolean };

async function push(user: TestUser, collection: string, rows: { newDocumentState: Doc; assumedMasterState?: Doc }[]) {
  const res = await fetch(`${sync.server.url}/sync/v1/${collection}/push`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${user.accessToken}`,
      'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION),
    },
    body: JSON.stringify({ rows }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { conflicts: Doc[] };
}

const application = (dealId: string, creatorId: string): Doc => ({
  id: newId(),
  deal_id: dealId,
  creator_id: creatorId,
  status: 'pending',
  pitch: 'I would love to',
  _deleted: false,
});

/** A brand and a creator with a conversation between them (made by the server, as a deal's chat is). */
async function brandAndCreatorInAConversation() {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const conversationId = newId();
  await sync.server.db.asService((tx) =>
    tx.query('insert into public.conversations (id, user1_id, user2_id, title) values ($1, $2, $3, $4)', [
      conversationId,
      brand.id,
      creator.id,
      'Hello',
    ]),
  );
  return { brand, creator, conversationId };
}

test('a write the rules reject comes back as a conflict with the reason; the rest of the batch lands', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const [open, closed] = (await insertDeals(sync.server.db, brand.id, 2)) as [string, string];
  await sync.server.db.asService((tx) =>
    tx.query(`update public.deals set status = 'cancelled' where id = $1`, [closed]),
  );

  const good = application(open, creator.id);
  const refused = application(closed, creator.id);
  const { conflicts } = await push(creator, 'applications', [
    { newDocumentState: good },
    { newDocumentState: refused },
  ]);
  // The cancelled deal is out of the creator's sight: refused as "not found", exactly like a missing deal.
  // (It comes back as parsed by the shared schema, with its defaults filled.)
  expect(conflicts).toEqual([
    {
      ...prepareDocument('applications', refused as Doc & { deal_id: string; creator_id: string }),
      _deleted: false,
      sync_rejection: { code: 'deal_not_found', message: 'Deal not found.' },
    },
  ]);
  const { rows } = await sync.server.db.pool.query('select id from public.applications where creator_id = $1', [
    creator.id,
  ]);
  expect(rows.map((r) => r.id)).toEqual([good.id]);

  // Retrying the same push (its answer was lost) writes nothing and reports no conflict.
  const retry = await push(creator, 'applications', [{ newDocumentState: good }]);
  expect(retry.conflicts).toEqual([]);
  const again = await sync.server.db.pool.query('select version from public.applications where id = $1', [good.id]);
  expect(again.rows[0].version).toBe(1);
});

test('a push from an outdated copy gets the master state back; server-owned fields are never taken from a client', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const dealId = newId();
  const newDeal: Doc = {
    ...prepareDocument('deals', {
      id: dealId,
      brand_id: brand.id,
      title: 'Launch video',
      description: 'A 60 s video',
      amount_cents: 120_000,
      niches: ['tech'],
    }),
    escrow_status: 'released',
    applications_count: 7,
    _deleted: false,
  };
  expect((await push(brand, 'deals', [{ newDocumentState: newDeal }])).conflicts).toEqual([]);
  const stored = await sync.server.db.pool.query(
    'select escrow_status, applications_count, version from public.deals where id = $1',
    [dealId],
  );
  expect(stored.rows[0]).toEqual({ escrow_status: 'none', applications_count: 0, version: 1 });

  const app = application(dealId, creator.id);
  await push(creator, 'applications', [{ newDocumentState: app }]);
  const { rows } = await sync.server.db.pool.query(
    // The whole document as the creator's device holds it (every field the schema names).
    `select to_jsonb(a) - array['deleted', 'change_xid'] || jsonb_build_object('_deleted', a.deleted) as doc
       from public.applications a where a.id = $1`,
    [app.id],
  );
  const master = rows[0].doc as Doc;
  // The brand accepts; the creator, still holding the pending copy, edits the pitch.
  expect(
    (
      await push(brand, 'applications', [
        { newDocumentState: { ...master, status: 'accepted' }, assumedMasterState: master },
      ])
    ).conflicts,
  ).toEqual([]);
  const stale = await push(creator, 'applications', [
    { newDocumentState: { ...master, pitch: 'Edited pitch' }, assumedMasterState: master },
  ]);
  expect(stale.conflicts).toHaveLength(1);
  // Version 4: the acceptance (2) moved the deal in progress, which the application's copy of the deal's
  // status follows (3), and started the terms (version 1 of the sheet, 4).
  expect(stale.conflicts[0]).toMatchObject({
    id: app.id,
    status: 'accepted',
    pitch: 'I would love to',
    deal_status: 'in_progress',
    terms_version: 1,
    version: 4,
  });
  expect(stale.conflicts[0]).not.toHaveProperty('sync_rejection');
});

test('on a device, a rejected message shows its reason, is not retried in a loop, and goes through once fixed', async () => {
  const { brand, creator, conversationId } = await brandAndCreatorInAConversation();
  const c = await sync.client(creator, ['conversations', 'messages']);
  await c.replication.awaitInitialSync();

  const id = newId();
  // Wrong recipient: the creator addresses the message to itself.
  await c.db.messages.insert(
    prepareDocument('messages', {
      id,
      conversation_id: conversationId,
      sender_id: creator.id,
      recipient_id: creator.id,
      body: 'Hi!',
    }),
  );
  const rejected = await eventually(async () => (await c.db.messages.findOne(id).exec())?.sync_rejection);
  expect(rejected).toEqual({
    code: 'wrong_recipient',
    message: 'The recipient must be the other participant of the conversation.',
  });

  const pushes = () =>
    c.network.calls.filter((call) => call.method === 'POST' && call.url.includes('/messages/push')).length;
  const before = pushes();
  await new Promise((r) => setTimeout(r, 1500));
  expect(pushes()).toBe(before);
  await c.replication.awaitInSync();

  await (await c.db.messages.findOne(id).exec())!.incrementalPatch({ recipient_id: brand.id, sync_rejection: null });
  await eventually(
    async () =>
      (await sync.server.db.pool.query('select recipient_id from public.messages where id = $1', [id])).rows[0]
        ?.recipient_id === brand.id,
  );
  await eventually(async () => (await c.db.messages.findOne(id).exec())?.version === 1);
});

test('a refusal kept from an earlier visit is shown again, read by its recorded id; once fixed, the record forgets it', async () => {
  const { brand, creator, conversationId } = await brandAndCreatorInAConversation();
  // What the browser keeps in localStorage between visits.
  let kept: string[] = [];
  const refusedStore = { load: () => kept, save: (ids: string[]) => void (kept = ids) };
  const c = await sync.client(creator, ['conversations', 'messages'], { refusedStore });
  await c.replication.awaitInitialSync();
  const id = newId();
  await c.db.messages.insert(
    prepareDocument('messages', {
      id,
      conversation_id: conversationId,
      sender_id: creator.id,
      recipient_id: creator.id,
      body: 'Hi!',
    }),
  );
  await eventually(async () => (await c.db.messages.findOne(id).exec())?.sync_rejection);
  expect(kept).toEqual([`messages/${id}`]);

  // A new visit on the same device: the refusal is listed again from the record.
  await c.replication.stop();
  c.restart();
  await c.replication.awaitInitialSync();
  const listed = await eventually(() => c.replication.syncStatus.rejected.find((r) => r.id === id));
  expect(listed).toMatchObject({ collection: 'messages', code: 'wrong_recipient' });

  await (await c.db.messages.findOne(id).exec())!.incrementalPatch({ recipient_id: brand.id, sync_rejection: null });
  await eventually(async () => (await c.db.messages.findOne(id).exec())?.version === 1);
  expect(kept).toEqual([]);
  expect(c.replication.syncStatus.rejected).toEqual([]);
});

test('without a record of kept refusals, a new visit finds a kept refusal by looking through the collection; a device that held nothing before its first sync does not look', async () => {
  const { creator, conversationId } = await brandAndCreatorInAConversation();
  const c = await sync.client(creator, ['conversations', 'messages']);
  // Looking for the marker reads every document of the collection (no index serves it).
  const looks: unknown[] = [];
  const find = c.db.messages.find.bind(c.db.messages);
  c.db.messages.find = ((query?: { selector?: Record<string, unknown> }) => {
    if (query?.selector && 'sync_rejection' in query.selector) looks.push(query.selector);
    return find(query as never);
  }) as typeof c.db.messages.find;
  await c.replication.awaitInSync();
  expect(looks).toEqual([]);

  const id = newId();
  await c.db.messages.insert(
    prepareDocument('messages', {
      id,
      conversation_id: conversationId,
      sender_id: creator.id,
      recipient_id: creator.id,
      body: 'Hi!',
    }),
  );
  await eventually(async () => (await c.db.messages.findOne(id).exec())?.sync_rejection);

  // A new visit on the same device, which now holds documents: the refusal is found and listed again.
  await c.replication.stop();
  c.restart();
  await c.replication.awaitInitialSync();
  const listed = await eventually(() => c.replication.syncStatus.rejected.find((r) => r.id === id));
  expect(listed).toMatchObject({ collection: 'messages', code: 'wrong_recipient' });
  expect(looks).toHaveLength(1);
});

test('on a device, a refused edit of an existing deal shows its reason, and the corrected edit goes through', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const [dealId] = await insertDeals(sync.server.db, brand.id, 1);
  // Received states are not kept as push bases here: the fix must come from the refused state itself,
  // as it does when the user corrects the edit minutes later.
  const b = await sync.client(brand, ['deals'], { rememberReceivedMs: 0 });
  await eventually(async () => (await b.db.deals.findOne(dealId!).exec()) !== null);
  await b.replication.awaitInSync();

  const deal = async () => (await b.db.deals.findOne(dealId!).exec())!;
  await (await deal()).incrementalPatch({ amount_cents: 50 });
  const refused = await eventually(async () => (await deal()).sync_rejection);
  expect(refused.code).toBeTypeOf('string');
  // The device shows the server's state again, with the reason.
  expect((await deal()).amount_cents).toBe(50001);

  await (await deal()).incrementalPatch({ amount_cents: 75_000, sync_rejection: null });
  const amountOnServer = async () =>
    Number(
      (await sync.server.db.pool.query('select amount_cents from public.deals where id = $1', [dealId])).rows[0]
        .amount_cents,
    );
  await eventually(async () => (await amountOnServer()) === 75_000, 15_000).catch(() => undefined);
  expect(await amountOnServer()).toBe(75_000);
  await eventually(async () => (await deal()).amount_cents === 75_000 && !(await deal()).sync_rejection);
});
