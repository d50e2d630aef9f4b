import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pino from 'pino';
import { createDealEmailSender, loadEmailLinkKey } from '../../sync-server/email/deal-emails.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { apply, asUser, makeDeal } from '../support/rules-fixtures.ts';

// E-mails for what waits on someone: a notification of an offer, new terms to answer, a draft to
// review, changes requested or a payout queues one e-mail unless its user opted out of that kind; the sender delivers it over
// SMTP (here a minimal SMTP server in the test that records what arrives) with RFC 8058's one-click
// unsubscribe headers, and the signed link's POST opts the user out.

/** A minimal SMTP server on loopback: records each message's raw data. */
function startSmtp(): Promise<{ port: number; messages: string[]; close: () => Promise<void> }> {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    let data: string | undefined;
    let buffer = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (data !== undefined) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push(data + buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          data = undefined;
          socket.write('250 OK\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250 test\r\n');
        else if (verb === 'DATA') {
          data = '';
          socket.write('354 go\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        messages,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let brand: TestUser;
let creator: TestUser;
beforeAll(async () => {
  smtp = await startSmtp();
  // The server's own sender delivers to the same SMTP, so whichever run claims a row, it arrives here.
  server = await startTestServer({
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'Pacta <no-reply@pacta.test>' },
  });
  [brand, creator] = await Promise.all([
    server.createUser({ role: 'brand' }),
    server.createUser({ role: 'creator', email: `casey-${randomUUID().slice(0, 6)}@example.test` }),
  ]);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const q = (sql: string, params: unknown[] = []) => server.db.pool.query(sql, params);

async function sender() {
  return createDealEmailSender({
    db: server.db,
    publicUrl: server.url,
    smtp: { url: `smtp://127.0.0.1:${smtp.port}`, from: 'Pacta <no-reply@pacta.test>' },
    key: await loadEmailLinkKey(server.db),
    log: pino({ level: 'silent' }),
  });
}

/** The brand counters on the creator's application: the creator has an offer waiting. */
async function offerToCreator(): Promise<string> {
  const dealId = randomUUID();
  const appId = randomUUID();
  await server.db.asService(async (tx) => {
    await tx.query(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches) values ($1, $2, 'Reel', 'One reel', 30000, '{fitness}')`,
      [dealId, brand.id],
    );
    await tx.query(`insert into public.applications (id, deal_id, creator_id) values ($1, $2, $3)`, [
      appId,
      dealId,
      creator.id,
    ]);
  });
  await server.db.asUser({ sub: brand.id, role: 'authenticated' }, (tx) =>
    tx.query(
      `insert into public.deal_events (id, application_id, deal_id, author_id, kind, price_cents) values ($1, $2, $3, $4, 'offer', 25000)`,
      [randomUUID(), appId, dealId, brand.id],
    ),
  );
  return dealId;
}

const queued = async (userId: string) =>
  (await q(`select kind, sent_at from pacta_private.deal_emails where user_id = $1 order by id`, [userId])).rows;

describe('e-mails for what waits on someone', () => {
  test('an offer queues one e-mail, sent over SMTP with one-click unsubscribe headers; the link opts out', async () => {
    await offerToCreator();
    expect((await queued(creator.id)).map((r) => r.kind)).toEqual(['offer']);
    // The brand made the offer: nothing waits on it.
    expect(await queued(brand.id)).toEqual([]);

    await (await sender()).run();
    const raw = smtp.messages.find((m) => m.includes(creator.email));
    expect(raw).toBeDefined();
    const unfolded = raw!.replace(/\r\n[ \t]+/g, ' ');
    expect(unfolded).toMatch(/^Subject: New offer$/m);
    expect(unfolded).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const link = /^List-Unsubscribe: <([^>]+)>$/m.exec(unfolded)?.[1];
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/email\/unsubscribe\?token=/);
    expect((await queued(creator.id))[0].sent_at).not.toBeNull();

    // A link scanner's GET changes nothing; a tampered token is refused.
    const page = await fetch(link!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Unsubscribe');
    // Another user's or kind's payload under this signature (the payload's first character changed).
    const tampered = await fetch(
      link!.replace(/token=(.)/, (_m, c: string) => `token=${c === 'W' ? 'X' : 'W'}`),
      { method: 'POST' },
    );
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toMatchObject({ code: 'invalid_token' });
    const prefs = () =>
      fetch(`${server.url}/api/email/preferences`, {
        headers: { authorization: `Bearer ${creator.accessToken}` },
      }).then((r) => r.json() as Promise<{ emails: { kind: string; enabled: boolean }[] }>);
    expect((await prefs()).emails.find((e) => e.kind === 'offer')?.enabled).toBe(true);

    // RFC 8058's one-click POST.
    const oneClick = await fetch(link!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect((await prefs()).emails.find((e) => e.kind === 'offer')?.enabled).toBe(false);
    await offerToCreator();
    expect((await queued(creator.id)).map((r) => r.kind)).toEqual(['offer']);

    // Turned back on in Settings: the next offer e-mails again.
    const on = await fetch(`${server.url}/api/email/preferences`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${creator.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'offer', enabled: true }),
    });
    expect(on.status).toBe(200);
    await offerToCreator();
    expect((await queued(creator.id)).map((r) => r.kind)).toEqual(['offer', 'offer']);
    const bad = await fetch(`${server.url}/api/email/preferences`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${creator.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'everything', enabled: false }),
    });
    expect(bad.status).toBe(400);
  });

  test('terms waiting on one side (a first sheet or a proposal) queue one e-mail to that side and none to the other; none once opted out', async () => {
    const [b, c] = await Promise.all([server.createUser({ role: 'brand' }), server.createUser({ role: 'creator' })]);
    const dealId = await makeDeal(server.db, b.id, { deliverables: ['Instagram Post'] });
    const appId = await apply(server.db, c.id, dealId);
    await asUser(server.db, b.id, `update public.applications set status = 'accepted' where id = $1`, [appId]);
    const step = (who: TestUser, kind: string, version: number, terms?: object) =>
      asUser(
        server.db,
        who.id,
        `insert into public.deal_events (id, application_id, deal_id, author_id, kind, terms_version, terms)
         values ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
        [randomUUID(), appId, dealId, who.id, kind, version, terms ? JSON.stringify(terms) : null],
      );
    // The first sheet, accepted by the creator, waits on the brand: that is an e-mail too.
    await step(c, 'terms_accepted', 1);
    expect((await queued(b.id)).map((r) => r.kind)).toEqual(['terms_proposed']);
    expect(await queued(c.id)).toEqual([]);
    await (await sender()).run();
    const firstSheet = smtp.messages.find((m) => m.includes(b.email))!.replace(/\r\n[ \t]+/g, ' ');
    expect(firstSheet).toMatch(/^Subject: Terms to accept$/m);
    // Both sides accepted: nothing waits on anyone, so nobody is e-mailed.
    await step(b, 'terms_accepted', 1);
    const v1 = (await q(`select terms from public.deal_events where application_id = $1 and kind = 'terms'`, [appId]))
      .rows[0].terms;
    expect(await queued(b.id)).toHaveLength(1);
    expect(await queued(c.id)).toEqual([]);

    // The creator proposes paid ads for 30 days: the brand's 'Accept terms' waits, the creator's does not.
    await step(c, 'terms', 2, { ...v1, usage_rights: 'paid_ads', usage_days: 30 });
    expect((await queued(b.id)).map((r) => r.kind)).toEqual(['terms_proposed', 'terms_proposed']);
    expect(await queued(c.id)).toEqual([]);
    await (await sender()).run();
    const raw = smtp.messages
      .map((m) => m.replace(/\r\n[ \t]+/g, ' '))
      .find((m) => m.includes(b.email) && /^Subject: New terms to accept$/m.test(m));
    expect(raw).toBeDefined();
    const { rows: sent } = await q(`select text_body from pacta_private.deal_emails where user_id = $1 order by id`, [
      b.id,
    ]);
    expect(sent[0].text_body).toContain('The creator accepted the terms of "Summer launch": your turn.');
    expect(sent[1].text_body).toContain('The creator proposed new terms for "Summer launch" (version 2)');
    expect(sent[0].text_body).toContain('"New terms wait for your answer" is on in Settings → Notifications.');

    // Settings lists the kind; the brand turns it off, and the next proposal e-mails nobody.
    const prefs = await fetch(`${server.url}/api/email/preferences`, {
      headers: { authorization: `Bearer ${b.accessToken}` },
    }).then((r) => r.json() as Promise<{ emails: { kind: string; label: string; enabled: boolean }[] }>);
    expect(prefs.emails.find((e) => e.kind === 'terms_proposed')).toEqual({
      kind: 'terms_proposed',
      label: 'New terms wait for your answer',
      enabled: true,
    });
    const off = await fetch(`${server.url}/api/email/preferences`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${b.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'terms_proposed', enabled: false }),
    });
    expect(off.status).toBe(200);
    await step(b, 'terms_declined', 2);
    await step(c, 'terms', 3, { ...v1, usage_rights: 'paid_ads', usage_days: 90 });
    expect((await queued(b.id)).map((r) => r.kind)).toEqual(['terms_proposed', 'terms_proposed']);
    expect(await queued(c.id)).toEqual([]);
    // The notification itself still comes: only the e-mail is off.
    const { rows } = await q(
      `select count(*)::int as n from public.notifications where user_id = $1 and type = 'terms_changed'`,
      [b.id],
    );
    expect(rows[0].n).toBe(2);
  });
});
