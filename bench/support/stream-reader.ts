/**
 * A reader process for `npm run bench:stream`: opens its share of the Server-Sent-Event streams and
 * records when each stream receives the `change` event of the current round, stamped where it is read
 * (not in the process that commits and waits). One process reading 5,000 sockets in turn still measures
 * itself in part: the server writes a notice to all of them in ~15 ms, the reader's HTTP parsing and
 * event loop spread the arrivals over tens of milliseconds more; real clients are 5,000 devices.
 *
 * Over IPC: `{ open: { port, tokens, count } }` → `{ opened }`; `{ round }` → `{ armed }` (arrivals
 * count from here); when every stream has its event → `{ done: round, times }` (epoch ms, one per
 * stream); `{ collect: round }` → the same with what arrived so far (0 = not arrived).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';

const OPEN_AT_ONCE = 100;
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const now = () => performance.timeOrigin + performance.now();

let round = 0;
let times = new Float64Array(0);
let arrived = 0;
const requests: http.ClientRequest[] = [];

function openStream(port: number, token: string, slot: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: '/sync/v1/stream', agent, headers: { authorization: `Bearer ${token}`, [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION), accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (event.startsWith('event: hello')) resolve();
            else if (event.startsWith('event: change') && round && !times[slot]) {
              times[slot] = now();
              if (++arrived === times.length) process.send!({ done: round, times: [...times] });
            }
          }
        });
      },
    );
    req.on('error', reject);
    requests.push(req);
  });
}

process.on('message', (message: { open?: { port: number; tokens: string[]; count: number }; round?: number; collect?: number; stop?: true }) => {
  if (message.open) {
    const { port, tokens, count } = message.open;
    void (async () => {
      for (let i = 0; i < count; i += OPEN_AT_ONCE) {
        await Promise.all(Array.from({ length: Math.min(OPEN_AT_ONCE, count - i) }, (_, j) => openStream(port, tokens[(i + j) % tokens.length]!, i + j)));
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
    for (const req of requests) req.destroy();
    agent.destroy();
    process.exit(0);
  }
});
process.send!({ ready: true });
