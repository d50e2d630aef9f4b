import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { createStreamHub } from './stream-hub.ts';

// A graceful shutdown ends every open change stream (closeAll) and then waits for the connections to
// finish. A stream whose request was still being authenticated when the shutdown began reaches the
// hub afterwards: it must end at once, or the shutdown waits for it for as long as the client stays.

let server: http.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('a stream added after the hub closed (the server shuts down) is ended at once, without a hello', async () => {
  const hub = createStreamHub({ knownCollections: ['deals'] });
  hub.closeAll();
  const url = await serve((_request, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    hub.add(res, { id: 'user-1', isAdmin: false, protocol: 1 });
  });
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(await res.text()).toBe('');
  expect(hub.size).toBe(0);
});

test('a stream added while the hub is open stays open and says hello', async () => {
  const hub = createStreamHub({ knownCollections: ['deals'] });
  const url = await serve((_request, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    hub.add(res, { id: 'user-1', isAdmin: false, protocol: 1 });
  });
  const res = await fetch(url);
  const reader = res.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  expect(first).toContain('event: hello');
  expect(hub.size).toBe(1);
  hub.closeAll();
  while (!(await reader.read()).done);
  expect(hub.size).toBe(0);
});
