import { expect, test } from 'vitest';
import { prepareDocument } from '../../src/db/index.ts';
import { SUPPORT_ERRORS } from '../../src/domain/support.ts';
import { syncTestFixture } from './sync-fixture.ts';
import { eventually, newId } from './sync-harness.ts';

// The support desk through the real sync server and real RxDB clients: what each device holds, what
// the server sets on the way (staff marks, priority), and a refusal coming back on the reply itself.

const sync = syncTestFixture();

test('staff replies come back marked, the asker is notified, and a reply to a closed ticket comes back refused with the reason', async () => {
  const creator = await sync.server.createUser({ role: 'creator' });
  const other = await sync.server.createUser({ role: 'creator' });
  const staff = await sync.server.createUser({ role: 'admin' });
  const c = await sync.client(creator, ['support_tickets', 'support_messages', 'notifications']);
  const s = await sync.client(staff, ['support_tickets', 'support_messages']);
  const o = await sync.client(other, ['support_tickets', 'support_messages']);
  await Promise.all([c, s, o].map((x) => x.replication.awaitInitialSync()));

  const ticketId = newId();
  await c.db.support_tickets.insert(
    prepareDocument('support_tickets', {
      id: ticketId,
      user_id: creator.id,
      subject: 'Payout question',
      message: 'When is it released?',
      priority: 'low',
    }),
  );
  // Staff's device receives it (the queue reads this collection); another user's never does.
  await eventually(async () => (await s.db.support_tickets.findOne(ticketId).exec())?.version);
  await s.db.support_messages.insert(
    prepareDocument('support_messages', {
      id: newId(),
      ticket_id: ticketId,
      user_id: staff.id,
      message: 'Released on Friday.',
    }),
  );

  await eventually(async () =>
    (await c.db.support_messages.find({ selector: { ticket_id: ticketId } }).exec()).find((m) => m.is_staff),
  );
  await eventually(async () => (await c.db.support_tickets.findOne(ticketId).exec())?.first_response_at);
  const note = await eventually(async () =>
    (await c.db.notifications.find().exec()).find((n) => n.type === 'support_reply'),
  );
  expect(note.data).toMatchObject({ ticket_id: ticketId, link: `/support/${ticketId}` });

  // Staff close it while the creator writes a reply: the reply comes back refused, saying why.
  const staffCopy = await s.db.support_tickets.findOne(ticketId).exec();
  await staffCopy!.incrementalPatch({ status: 'closed' });
  await eventually(
    async () =>
      (await sync.server.db.pool.query('select status from public.support_tickets where id = $1', [ticketId])).rows[0]
        .status === 'closed',
  );
  const replyId = newId();
  await c.db.support_messages.insert(
    prepareDocument('support_messages', { id: replyId, ticket_id: ticketId, user_id: creator.id, message: 'Thanks!' }),
  );
  const refused = await eventually(async () => (await c.db.support_messages.findOne(replyId).exec())?.sync_rejection);
  expect(refused).toEqual({ code: 'ticket_closed', message: SUPPORT_ERRORS.ticketClosed });
  await eventually(async () => (await c.db.support_tickets.findOne(ticketId).exec())?.status === 'closed');

  expect(await o.db.support_tickets.find().exec()).toEqual([]);
  expect(await o.db.support_messages.find().exec()).toEqual([]);
  for (const x of [c, s, o]) await sync.closeClient(x);
});

test('a contact-form message reaches the staff queue as a contact ticket', async () => {
  const staff = await sync.server.createUser({ role: 'admin' });
  const s = await sync.client(staff, ['support_tickets']);
  await s.replication.awaitInitialSync();
  const res = await fetch(`${sync.server.url}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Jo Visitor',
      email: 'jo@example.test',
      subject: 'billing',
      message: 'Can we pay by invoice?',
    }),
  });
  expect(res.status).toBe(201);
  const ticket = await eventually(
    async () => (await s.db.support_tickets.find({ selector: { kind: 'contact' } }).exec())[0],
  );
  expect(ticket.toJSON()).toMatchObject({
    user_id: null,
    subject: 'Contact: Billing',
    message: 'Can we pay by invoice?',
    status: 'open',
    priority: 'normal',
    contact_name: 'Jo Visitor',
    contact_email: 'jo@example.test',
  });
  await sync.closeClient(s);
});
