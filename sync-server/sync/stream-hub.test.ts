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
  hub.closeAll({ reconnectWithinMs: 2_000 });
  let rest = '';
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
    rest += new TextDecoder().decode(chunk.value);
  // Told to reconnect (elsewhere) before the stream ends: EventSource's `retry:` and the client's own event.
  expect(rest).toBe('retry: 2000\nevent: reconnect\ndata: {"within":2000}\n\n');
  expect(hub.size).toBe(0);
});

/** Reads a stream's text until `done` says it has what the test waits for. */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  done: (text: string) => boolean,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

test('a burst of notices reaches each stream it concerns once per collection; a catalog notice reaches every stream', async () => {
  const hub = createStreamHub({ knownCollections: ['deals', 'messages'] });
  const url = await serve((request, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    hub.add(res, { id: new URL(request.url!, 'http://x').searchParams.get('user')!, isAdmin: false, protocol: 1 });
  });
  const open = async (user: string) => {
    const reader = (await fetch(`${url}/?user=${user}`)).body!.getReader();
    await readUntil(reader, (t) => t.includes('event: hello'));
    return reader;
  };
  const [one, two] = [await open('user-1'), await open('user-2')];
  // Within one window: three catalog notices and two for user-1 alone.
  hub.notify({ collection: 'deals', audience: null });
  hub.notify({ collection: 'messages', audience: ['user-1'] });
  hub.notify({ collection: 'deals', audience: null });
  hub.notify({ collection: 'messages', audience: ['user-1', 'user-3'] });
  hub.notify({ collection: 'deals', audience: null });
  const count = (text: string, collection: string) => text.split(`data: {"collection":"${collection}"}`).length - 1;
  const first = await readUntil(one, (t) => count(t, 'deals') > 0 && count(t, 'messages') > 0);
  const second = await readUntil(two, (t) => count(t, 'deals') > 0);
  // Whatever else was sent arrives before this marker: a later catalog notice, after the window.
  await new Promise((r) => setTimeout(r, 50));
  hub.notify({ collection: 'messages', audience: null });
  const firstRest = await readUntil(one, (t) => count(t, 'messages') > 0);
  const secondRest = await readUntil(two, (t) => count(t, 'messages') > 0);
  expect([count(first + firstRest, 'deals'), count(first + firstRest, 'messages')]).toEqual([1, 2]);
  expect([count(second + secondRest, 'deals'), count(second + secondRest, 'messages')]).toEqual([1, 1]);
  expect(first).toMatch(/^event: change\ndata: \{"collection":"(deals|messages)"\}\n\n/);
  hub.closeAll();
});

test("a user's own rows reach only that user's streams that read rows; their older clients get a notice", async () => {
  const gone: string[] = [];
  const hub = createStreamHub({ knownCollections: ['messages'], onUserGone: (id) => gone.push(id) });
  const url = await serve((request, res) => {
    const params = new URL(request.url!, 'http://x').searchParams;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    hub.add(res, { id: params.get('user')!, isAdmin: false, protocol: 2, readsRows: params.get('rows') === '1' });
  });
  const open = async (user: string, rows: boolean) => {
    const abort = new AbortController();
    const reader = (
      await fetch(`${url}/?user=${user}&rows=${rows ? 1 : 0}`, { signal: abort.signal })
    ).body!.getReader();
    await readUntil(reader, (t) => t.includes('event: hello'));
    return { reader, abort };
  };
  const [reading, older, other] = [await open('user-1', true), await open('user-1', false), await open('user-2', true)];
  expect([hub.readsRows('user-1'), hub.readsRows('user-2'), hub.readsRows('user-3')]).toEqual([true, true, false]);

  const event = Buffer.from('event: rows\ndata: {"collection":"messages"}\n\n');
  hub.streamRowsTo('user-1', 'messages', event);
  expect(await readUntil(reading.reader, (t) => t.includes('event: rows'))).toBe(event.toString());
  expect(await readUntil(older.reader, (t) => t.includes('event: change'))).toBe(
    'event: change\ndata: {"collection":"messages"}\n\n',
  );
  // A notice for user-2 alone; user-1's streams see nothing more before the marker that follows it.
  hub.notifyUser('user-2', 'messages');
  expect(await readUntil(other.reader, (t) => t.includes('event: change'))).toContain('"messages"');
  await new Promise((r) => setTimeout(r, 50));
  hub.notify({ collection: 'marker', audience: null });
  expect(await readUntil(reading.reader, (t) => t.includes('marker'))).not.toContain('"messages"');

  // The user is gone once their last stream closes.
  reading.abort.abort();
  older.abort.abort();
  await expect.poll(() => gone).toEqual(['user-1']);
  expect(hub.readsRows('user-1')).toBe(false);
  hub.closeAll();
});
