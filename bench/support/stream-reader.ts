/**
 * A reader process for `npm run bench:stream`: opens its share of the Server-Sent-Event streams and
 * records when each stream receives the `change` event of the current round, stamped where it is read
 * (not in the process that commits and waits). One process reading 5,000 sockets in turn still measures
 * itself in part: the server writes a notice to all of them in ~15 ms, and the reader's event loop
 * takes its turns on the 5,000 sockets after that; real clients are 5,000 devices.
 *
 * Over IPC: `{ open: { port, tokens, count } }` → `{ opened }`; `{ round }` → `{ armed }` (arrivals
 * count from here); when every stream has its event → `{ done: round, times }` (epoch ms, one per
 * stream); `{ collect: round }` → the same with what arrived so far (0 = not arrived).
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';

const OPEN_AT_ONCE = 100;
const now = () => performance.timeOrigin + performance.now();
const HELLO = Buffer.from('event: hello');
const CHANGE = Buffer.from('event: change');

let round = 0;
let times = new Float64Array(0);
let arrived = 0;
const sockets: net.Socket[] = [];

/**
 * One stream on a bare socket: the request written by hand, the response scanned for the event's
 * bytes. No HTTP parser and no text decoding per chunk, so the reader costs as little as it can per
 * notice (an event is a few dozen bytes sent in one write; the end of the previous chunk is kept in
 * case one is split).
 */
function openStream(port: number, token: string, slot: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.write(
        `GET /sync/v1/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n${SYNC_PROTOCOL_HEADER}: ${SYNC_PROTOCOL_VERSION}\r\nAccept: text/event-stream\r\n\r\n`,
      );
    });
    socket.setNoDelay(true);
    let opened = false;
    let tail: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const seen = tail.length ? Buffer.concat([tail, chunk]) : chunk;
      tail = seen.subarray(Math.max(0, seen.length - CHANGE.length));
      if (!opened) {
        if (!seen.subarray(0, 12).toString().startsWith('HTTP/1.1 200'))
          return reject(new Error(`stream answered ${seen.subarray(0, 12).toString()}`));
        if (seen.indexOf(HELLO) < 0) return;
        opened = true;
        tail = Buffer.alloc(0);
        return resolve();
      }
      if (round && !times[slot] && seen.indexOf(CHANGE) >= 0) {
        times[slot] = now();
        if (++arrived === times.length) process.send!({ done: round, times: [...times] });
      }
    });
    socket.on('error', reject);
    sockets.push(socket);
  });
}

process.on(
  'message',
  (message: {
    open?: { port: number; tokens: string[]; count: number };
    round?: number;
    collect?: number;
    stop?: true;
  }) => {
    if (message.open) {
      const { port, tokens, count } = message.open;
      void (async () => {
        for (let i = 0; i < count; i += OPEN_AT_ONCE) {
          await Promise.all(
            Array.from({ length: Math.min(OPEN_AT_ONCE, count - i) }, (_, j) =>
              openStream(port, tokens[(i + j) % tokens.length]!, i + j),
            ),
          );
        }
        times = new Float64Array(count);
        process.send!({ opened: count });
      })().catch((err: unknown) => {
        console.error(err);
        process.exit(1);
      });
    } else if (message.round !== undefined) {
      round = message.round;
      times.fill(0);
      arrived = 0;
      process.send!({ armed: round });
    } else if (message.collect !== undefined) {
      process.send!({ done: message.collect, times: [...times] });
    } else if (message.stop) {
      for (const socket of sockets) socket.destroy();
      process.exit(0);
    }
  },
);
process.send!({ ready: true });
