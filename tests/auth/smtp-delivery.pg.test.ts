// With SMTP_URL set, auth e-mails are sent for real (nodemailer) to a tiny SMTP server run by the
// test, recorded as sent in the outbox, and the dev mailbox is not served.
import net from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '../support/free-port.ts';
import { postJson, startAuthTestServer, type AuthTestServer } from './auth-test-server.ts';

type Received = { from: string; to: string[]; data: string };

/** Just enough SMTP (RFC 5321, no extensions) to accept messages. */
function startSmtpSink(): Promise<{ port: number; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current: Received = { from: '', to: [], data: '' };
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          received.push(current);
          current = { from: '', to: [], data: '' };
          inData = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'MAIL') current.from = line;
        if (verb === 'RCPT') current.to.push(line);
        if (verb === 'DATA') inData = true;
        if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write(verb === 'DATA' ? '354 go ahead\r\n' : '250 ok\r\n');
      }
    });
    socket.on('error', () => {});
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({ port, received, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let server: AuthTestServer;
beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startAuthTestServer({
    env: { EMAIL_CONFIRMATION: 'on', SMTP_URL: `smtp://127.0.0.1:${sink.port}`, SMTP_FROM: 'Pacta <auth@pacta.test>' },
  });
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

test('the confirmation e-mail is sent by SMTP with its link and recorded as sent', async () => {
  const email = 'smtp-user@example.test';
  const res = await postJson(`${server.url}/auth/v1/signup`, { email, password: 'long enough' });
  expect(res.status).toBe(200);
  // Sent in the background, after the answer (an address with an account answers as fast as one without).
  await expect.poll(() => sink.received.length).toBe(1);
  const [message] = sink.received;
  expect(message!.to.join()).toContain(email);
  expect(message!.from).toContain('auth@pacta.test');
  const sentRow = () =>
    server.db.pool.query('select action_link, sent_at, send_error from auth.pacta_email_outbox where to_email = $1', [
      email,
    ]);
  await expect.poll(async () => (await sentRow()).rows[0].sent_at).toBeInstanceOf(Date);
  const { rows } = await sentRow();
  expect(rows[0].send_error).toBeNull();
  // The link survives the transfer encoding (soft line breaks removed).
  const body = message!.data.replace(/=\r\n/g, '').replace(/=3D/g, '=');
  expect(body).toContain(rows[0].action_link);
});

test('with SMTP configured the dev mailbox is not served', async () => {
  expect((await fetch(`${server.url}/auth/v1/dev/mailbox.json`)).status).toBe(404);
  expect((await fetch(`${server.url}/auth/v1/dev/mailbox`)).status).toBe(404);
});

test('a mail server that cannot be reached answers nothing different: no 500 that only accounts could cause', async () => {
  const closedPort = await freePort(); // nothing listens there
  const unreachable = await startAuthTestServer({
    env: { EMAIL_CONFIRMATION: 'on', SMTP_URL: `smtp://127.0.0.1:${closedPort}`, AUTH_EMAIL_MIN_INTERVAL_SECONDS: '0' },
  });
  try {
    const email = 'unlucky@example.test';
    expect((await postJson(`${unreachable.url}/auth/v1/signup`, { email, password: 'long enough' })).status).toBe(200);
    const known = await postJson(`${unreachable.url}/auth/v1/recover`, { email });
    const unknown = await postJson(`${unreachable.url}/auth/v1/recover`, { email: 'nobody-here@example.test' });
    expect({ status: known.status, body: known.body }).toEqual({ status: 200, body: {} });
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 200, body: {} });
    // The failure is kept where an operator looks for it.
    await expect
      .poll(async () => {
        const { rows } = await unreachable.db.pool.query(
          `select count(*)::int as n from auth.pacta_email_outbox where to_email = $1 and send_error is not null`,
          [email],
        );
        return rows[0].n;
      })
      .toBe(2);
  } finally {
    await unreachable.close();
  }
});
