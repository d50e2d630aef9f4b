import { expect, test } from 'vitest';
import { pullDocument } from '../support/pull-to-end.ts';
import { SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';
import { conversationIdFor } from '../../src/domain/conversation-id.ts';
import type { TestUser } from '../support/test-server.ts';
import { syncTestFixture } from './sync-fixture.ts';
import { insertDeals, newId } from './sync-harness.ts';

// A creator's portfolio and a message's files point at Pacta's storage, and the server holds them to
// the rules of 20261128000200: "a portfolio is an ordered list of at most 12 images and short videos,
// each in the owner's folder of the portfolio bucket"; "a message may carry up to 4 files, each under
// the conversation's folder of the attachments bucket, and its files can no more be changed than its
// body". Pushed through /sync/v1 as the devices do.

const sync = syncTestFixture();

type Doc = Record<string, unknown> & { id: string; _deleted: boolean };

const server = (sql: string, params: unknown[] = []) => sync.server.db.pool.query(sql, params);

const portfolioItem = (folder: string, file = `${newId()}.webp`, kind = 'image') => ({
  id: newId(),
  url: `/storage/v1/object/public/portfolio/${folder}/${file}`,
  kind,
});

async function savePortfolio(user: TestUser, media: unknown[]) {
  const master = await pulled(user, 'profiles', user.id);
  return push(user, 'profiles', [
    { newDocumentState: { ...master, portfolio_media: media }, assumedMasterState: master },
  ]);
}

const portfolioOnServer = async (userId: string) =>
  (await server('select portfolio_media from public.profiles where id = $1', [userId])).rows[0]
    .portfolio_media as unknown[];

test("a portfolio of more than 12 items, or with a file outside the owner's portfolio folder, is refused", async () => {
  const user = await sync.server.createUser({ role: 'creator' });
  const other = await sync.server.createUser({ role: 'creator' });
  const refusals = [
    Array.from({ length: 13 }, () => portfolioItem(user.id)),
    [portfolioItem(other.id)],
    [{ ...portfolioItem(user.id), url: `/storage/v1/object/public/avatars/${user.id}/me.webp` }],
    [{ ...portfolioItem(user.id), url: 'https://tracker.example/pixel.png' }],
    [{ ...portfolioItem(user.id), url: `/storage/v1/object/public/portfolio/${user.id}/../${other.id}/x.webp` }],
  ];
  for (const media of refusals) {
    const [refusal] = await savePortfolio(user, media);
    expect((refusal?.sync_rejection as { code: string } | undefined)?.code).toBe('invalid_portfolio');
    expect((refusal?.sync_rejection as { message: string }).message).toBe(
      'A portfolio holds at most 12 images and videos, each uploaded to your own portfolio on Pacta.',
    );
    expect(await portfolioOnServer(user.id)).toEqual([]);
  }

  // Twelve items in the owner's folder, images and videos, are kept in their order.
  const twelve = Array.from({ length: 12 }, (_, i) =>
    portfolioItem(user.id, `item-${i}.${i % 3 ? 'webp' : 'mp4'}`, i % 3 ? 'image' : 'video'),
  );
  expect(await savePortfolio(user, twelve)).toEqual([]);
  expect(await portfolioOnServer(user.id)).toEqual(twelve);
});

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
  if (res.status !== 200) throw new Error(await res.text());
  return ((await res.json()) as { conflicts: Doc[] }).conflicts;
}

async function pulled(user: TestUser, collection: string, id: string): Promise<Doc> {
  const headers = { authorization: `Bearer ${user.accessToken}`, 'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION) };
  return (await pullDocument(sync.server.url, headers, collection, id)) as Doc;
}

async function conversationPair() {
  const brand = await sync.server.createUser({ role: 'brand', fullName: 'Acme Studio' });
  const creator = await sync.server.createUser({ role: 'creator', fullName: 'Casey Creator' });
  const [dealId] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  const conv: Doc = {
    id: conversationIdFor(creator.id, brand.id, dealId),
    user1_id: creator.id,
    user2_id: brand.id,
    deal_id: dealId,
    title: '',
    _deleted: false,
  };
  expect(await push(creator, 'conversations', [{ newDocumentState: conv }])).toEqual([]);
  return { brand, creator, convId: conv.id };
}

const file = (folder: string, name = 'brief.pdf') => ({
  path: `${folder}/${newId()}.pdf`,
  name,
  type: 'application/pdf',
  size: 1234,
});

const sent = (convId: string, from: TestUser, to: TestUser, attachments: unknown[], body = ''): Doc => ({
  id: newId(),
  conversation_id: convId,
  sender_id: from.id,
  recipient_id: to.id,
  body,
  attachments,
  _deleted: false,
});

test("a message with more than 4 files, or a file outside its conversation's folder, is refused and not stored", async () => {
  const { brand, creator, convId } = await conversationPair();
  const elsewhere = conversationIdFor(creator.id, brand.id, null);
  for (const attachments of [
    Array.from({ length: 5 }, () => file(convId)),
    [file(elsewhere)],
    [{ ...file(convId), path: `${convId}/../${elsewhere}/x.pdf` }],
    [{ ...file(convId), path: `${creator.id}/avatar.webp` }],
  ]) {
    const message = sent(convId, creator, brand, attachments);
    const [refused] = await push(creator, 'messages', [{ newDocumentState: message }]);
    expect(refused?.sync_rejection).toEqual({
      code: 'invalid_attachment',
      message: 'A message can carry up to 4 files, each uploaded to this conversation on Pacta.',
    });
    expect((await server('select count(*)::int as n from public.messages where id = $1', [message.id])).rows[0].n).toBe(
      0,
    );
  }

  // Four files in the conversation's folder go through, with no text, and the inbox shows the first file.
  const four = [file(convId, 'contract.pdf'), file(convId), file(convId), file(convId)];
  const message = sent(convId, creator, brand, four);
  expect(await push(creator, 'messages', [{ newDocumentState: message }])).toEqual([]);
  const { rows } = await server(
    'select m.attachments, c.last_message from public.messages m join public.conversations c on c.id = m.conversation_id where m.id = $1',
    [message.id],
  );
  expect(rows[0]).toEqual({ attachments: four, last_message: 'Sent a file: contract.pdf' });
});

test("a sent message's files cannot be swapped, added or removed", async () => {
  const { brand, creator, convId } = await conversationPair();
  const original = [file(convId, 'invoice.pdf')];
  const message = sent(convId, creator, brand, original, 'Here is the invoice');
  expect(await push(creator, 'messages', [{ newDocumentState: message }])).toEqual([]);
  const master = await pulled(creator, 'messages', message.id);
  expect(master.attachments).toEqual(original);

  for (const attachments of [[file(convId, 'other-invoice.pdf')], [...original, file(convId)], []]) {
    const [refused] = await push(creator, 'messages', [
      { newDocumentState: { ...master, attachments }, assumedMasterState: master },
    ]);
    expect(refused?.sync_rejection).toMatchObject({ code: 'immutable_field' });
    const { rows } = await server('select attachments from public.messages where id = $1', [message.id]);
    expect(rows[0].attachments).toEqual(original);
  }
});
