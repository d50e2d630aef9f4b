import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
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
