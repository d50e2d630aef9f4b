import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test, vi } from 'vitest';
import { openChangeStream } from './change-stream.ts';
import { createSyncApi } from './sync-api.ts';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A stream endpoint that says hello on each connection and then keeps it open, sending nothing. */
async function silentStreamServer() {
  const open: ServerResponse[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    connections++;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: hello\ndata: {}\n\n');
    open.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        open.forEach((res) => res.destroy());
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

async function until(check: () => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('a connection that goes silent without closing is dropped and opened again, which resyncs', async () => {
  const server = await silentStreamServer();
  const events: string[] = [];
  const errors: unknown[] = [];
  const stream = openChangeStream(
    createSyncApi({ serverUrl: server.url, getAccessToken: () => 'token' }),
    {
      onHello: () => events.push('hello'),
      onChange: () => events.push('change'),
      onConnectedChange: (connected) => events.push(connected ? 'connected' : 'disconnected'),
      onError: (err) => errors.push(err),
    },
    { silenceMs: 200 },
  );
  cleanups.push(() => stream.stop());

  await until(() => server.connections() >= 2 && events.filter((e) => e === 'hello').length >= 2);
  expect(events.slice(0, 4)).toEqual(['connected', 'hello', 'disconnected', 'connected']);
  // Dropping a silent connection is routine, not a sync failure to show the user.
  expect(errors).toEqual([]);
});

test('heartbeats keep a quiet connection open', async () => {
  let connections = 0;
  const server = createServer((req, res) => {
    connections++;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: hello\ndata: {}\n\n');
    const beat = setInterval(() => res.write(': heartbeat\n\n'), 50);
    res.on('close', () => clearInterval(beat));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stream = openChangeStream(
    createSyncApi({ serverUrl: url, getAccessToken: () => 'token' }),
    { onHello: () => {}, onChange: () => {}, onConnectedChange: () => {}, onError: () => {} },
    { silenceMs: 200 },
  );
  cleanups.push(
    () => stream.stop(),
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  await new Promise((r) => setTimeout(r, 800));
  expect(connections).toBe(1);
});

/** Waits for I/O (not timers, which the test may have frozen) until `check` holds. */
async function untilIo(check: () => boolean) {
  for (let i = 0; i < 20_000 && !check(); i++) await new Promise((r) => setImmediate(r));
  if (!check()) throw new Error('condition not met');
}

test("a leaving server's streams come back at random moments within the time it gives, not all at once", async () => {
  // The first connection of each client is told to reconnect within 4 s (a draining instance); the
  // next ones stay open.
  let connections = 0;
  const open: ServerResponse[] = [];
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: hello\ndata: {}\n\n');
    if (++connections <= 2) res.end('retry: 4000\nevent: reconnect\ndata: {"within":4000}\n\n');
    else open.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        open.forEach((res) => res.destroy());
        server.close(() => resolve());
      }),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  cleanups.push(() => void vi.useRealTimers());

  const clients = [0.25, 0.75].map((draw) => {
    const client = { requests: 0, hellos: 0, errors: [] as unknown[], disconnected: false };
    const stream = openChangeStream(
      createSyncApi({
        serverUrl: url,
        getAccessToken: () => 'token',
        fetch: (input, init) => {
          client.requests++;
          return fetch(input, init);
        },
      }),
      {
        onHello: () => client.hellos++,
        onChange: () => {},
        onConnectedChange: (connected) => (client.disconnected ||= !connected),
        onError: (err) => client.errors.push(err),
      },
      { random: () => draw },
    );
    cleanups.unshift(() => stream.stop());
    return client;
  });
  const [early, late] = clients as [(typeof clients)[0], (typeof clients)[0]];
  await untilIo(() => clients.every((c) => c.disconnected));
  expect(clients.map((c) => c.requests)).toEqual([1, 1]);

  // 0.25 × 4 s and 0.75 × 4 s: one second apart from the hint's start, two seconds apart from each other.
  vi.advanceTimersByTime(999);
  await new Promise((r) => setImmediate(r));
  expect(clients.map((c) => c.requests)).toEqual([1, 1]);
  vi.advanceTimersByTime(1);
  await untilIo(() => early.hellos === 2);
  expect(late.requests).toBe(1);
  vi.advanceTimersByTime(1999);
  await new Promise((r) => setImmediate(r));
  expect(late.requests).toBe(1);
  vi.advanceTimersByTime(1);
  await untilIo(() => late.hellos === 2);
  // A routine leave, not a failure to show.
  expect(clients.flatMap((c) => c.errors)).toEqual([]);
});
