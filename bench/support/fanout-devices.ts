/**
 * A device process for `npm run bench:fanout`: holds its share of the devices, each a change stream on
 * a bare socket (as bench:stream's reader) and a checkpoint of `deals`. On a `change` notice for
 * `deals` a device does what the app's replication does: it pulls `deals` from its checkpoint (its
 * scope is in the checkpoint), keeps the new checkpoint, pulls again after 300 ms when the pull found
 * nothing (the notice may have raced its commit's visibility) and after 200 ms when the answer says
 * `pending`. On a `rows` event (BENCH_PROTOCOL 2, the default: the app's own protocol) it does what the
 * app does with them: applies them when they follow its checkpoint (`placeOf`, `checkpointAfterRows`),
 * ignores them when it already stands past them, and pulls otherwise. A device is done when the round's
 * deal is in its hands. Times are stamped here.
 *
 * Over IPC: `{ open: { port, devices: [{ token, checkpoint }] } }` → `{ opened }`;
 * `{ round, dealId }` → `{ armed }`; when every device holds the deal → `{ done: round, noticeAt,
 * pulledAt, pulls }` (epoch ms per device, 0 = not yet); `{ collect: round }` → the same now.
 */
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  SYNC_PROTOCOL_HEADER,
  SYNC_PROTOCOL_VERSION,
  type SyncCheckpoint,
} from '../../src/domain/collections/index.ts';
import { checkpointAfterRows, readStreamEvent } from '../../src/domain/contracts/change-stream.ts';
import { placeOf } from '../../src/db/sync/streamed-rows.ts';

const OPEN_AT_ONCE = 100;
const now = () => performance.timeOrigin + performance.now();
const HELLO = Buffer.from('event: hello');
const CHANGE = Buffer.from('event: change');
/** The protocol the devices speak: 1 gets `change` notices only (the app before rows were streamed). */
const PROTOCOL = Number(process.env.BENCH_PROTOCOL ?? SYNC_PROTOCOL_VERSION);
/** How long the app's replication waits before it retries a pull that failed (RxDB's `retryTime`). */
const RETRY_MS = 5_000;

// Each device has its own connection for its pulls, kept open as a browser keeps it (HTTP/1.1
// keep-alive): it was opened by the pull that brought the device in step, before the round.
type Device = { token: string; checkpoint: unknown; pulling: boolean; agent: http.Agent };

let port = 0;
let round = 0;
let dealId = '';
let devices: Device[] = [];
let noticeAt = new Float64Array(0);
let pulledAt = new Float64Array(0);
let done = 0;
let pulls = 0;
let applied = 0;
let failures = 0;
const sockets: net.Socket[] = [];

function report(at: number) {
  process.send!({ done: at, noticeAt: [...noticeAt], pulledAt: [...pulledAt], pulls, applied, failures });
}

function pull(device: Device): Promise<{ documents: { id: string }[]; checkpoint?: unknown; pending?: boolean }> {
  const params = new URLSearchParams({ limit: '1000', checkpoint: JSON.stringify(device.checkpoint) });
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: `/sync/v1/deals/pull?${params}`,
        agent: device.agent,
        headers: { authorization: `Bearer ${device.token}`, [SYNC_PROTOCOL_HEADER]: String(PROTOCOL) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString();
          if (res.statusCode !== 200) return reject(new Error(`pull answered ${res.statusCode}: ${body}`));
          resolve(JSON.parse(body));
        });
      },
    );
    req.on('error', reject);
  });
}

/** Pulls until the round's deal has arrived (or the round moved on), as the app's replication would. */
async function react(slot: number, forRound: number) {
  const device = devices[slot]!;
  if (device.pulling) return;
  device.pulling = true;
  try {
    while (round === forRound && !pulledAt[slot]) {
      pulls++;
      const page = await pullRetrying(device);
      if (page.checkpoint) device.checkpoint = page.checkpoint;
      if (page.documents.some((d) => d.id === dealId)) {
        pulledAt[slot] = now();
        if (++done === devices.length) report(forRound);
        return;
      }
      await new Promise((r) => setTimeout(r, page.pending ? 200 : 300));
    }
  } finally {
    device.pulling = false;
  }
}

/** One pull, retried as the app retries a failed one (after `RETRY_MS`); failures are counted. */
async function pullRetrying(device: Device) {
  for (;;) {
    try {
      return await pull(device);
    } catch (err) {
      if (++failures <= 3) console.error(`a pull failed (retried in ${RETRY_MS / 1000} s):`, String(err));
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }
}

function onNotice(slot: number) {
  if (!round || noticeAt[slot]) return;
  noticeAt[slot] = now();
  void react(slot, round);
}

/** What the app's replication does with rows from the stream (src/db/sync/streamed-rows.ts). */
function onRows(slot: number, block: string) {
  const arrived = now();
  const rows = readStreamEvent('rows', /^data: (.*)$/m.exec(block)?.[1] ?? '');
  const device = devices[slot]!;
  if (!rows) return onNotice(slot);
  if (round && !noticeAt[slot]) noticeAt[slot] = arrived;
  const place = device.pulling ? 'gap' : placeOf(device.checkpoint as SyncCheckpoint, rows);
  if (place === 'gap') return void react(slot, round);
  if (place === 'had') return;
  device.checkpoint = checkpointAfterRows(device.checkpoint as SyncCheckpoint, rows);
  if (round && !pulledAt[slot] && rows.documents.some((d) => d.id === dealId)) {
    applied++;
    pulledAt[slot] = now();
    if (++done === devices.length) report(round);
  }
}

function openStream(slot: number): Promise<void> {
  const { token } = devices[slot]!;
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.write(
        `GET /sync/v1/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n${SYNC_PROTOCOL_HEADER}: ${PROTOCOL}\r\nAccept: text/event-stream\r\n\r\n`,
      );
    });
    socket.setNoDelay(true);
    let opened = false;
    let tail: Buffer = Buffer.alloc(0);
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      const seen = tail.length ? Buffer.concat([tail, chunk]) : chunk;
      tail = seen.subarray(Math.max(0, seen.length - CHANGE.length));
      if (!opened) {
        if (!seen.subarray(0, 12).toString().startsWith('HTTP/1.1 200'))
          return reject(new Error(`stream answered ${seen.subarray(0, 12).toString()}`));
        if (seen.indexOf(HELLO) < 0) return;
        opened = true;
        tail = Buffer.alloc(0);
        // What followed the hello in the same chunk is read as events.
        text = seen.subarray(seen.indexOf(HELLO) + HELLO.length).toString();
        return resolve();
      }
      // Events are read whole (a rows event carries data and may span reads). Each event is one write of
      // the server, so one chunk of the chunked response: its framing never falls inside an event.
      text += chunk.toString();
      let start: number;
      while ((start = text.indexOf('event: ')) >= 0) {
        const end = text.indexOf('\n\n', start);
        if (end < 0) break;
        const block = text.slice(start, end);
        text = text.slice(end + 2);
        if (block.startsWith('event: rows')) onRows(slot, block);
        // A notice of another collection (the publishing brand's profile) is not a reason to pull deals.
        else if (block.startsWith('event: change') && block.includes('"collection":"deals"')) onNotice(slot);
      }
      if (!text.includes('event: ')) text = text.slice(-16);
    });
    socket.on('error', reject);
    sockets.push(socket);
  });
}

process.on(
  'message',
  (message: {
    open?: { port: number; devices: { token: string; checkpoint: unknown }[] };
    round?: number;
    dealId?: string;
    collect?: number;
    stop?: true;
  }) => {
    if (message.open) {
      port = message.open.port;
      devices = message.open.devices.map((d) => ({
        ...d,
        pulling: false,
        agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
      }));
      noticeAt = new Float64Array(devices.length);
      pulledAt = new Float64Array(devices.length);
      void (async () => {
        for (let i = 0; i < devices.length; i += OPEN_AT_ONCE) {
          await Promise.all(
            Array.from({ length: Math.min(OPEN_AT_ONCE, devices.length - i) }, async (_, j) => {
              await openStream(i + j);
              // The device is in step: its pull connection is open, its checkpoint current.
              const page = await pull(devices[i + j]!);
              devices[i + j]!.checkpoint = page.checkpoint;
            }),
          );
        }
        process.send!({ opened: devices.length });
      })().catch((err: unknown) => {
        console.error(err);
        process.exit(1);
      });
    } else if (message.round !== undefined) {
      round = message.round;
      dealId = message.dealId!;
      noticeAt.fill(0);
      pulledAt.fill(0);
      done = 0;
      pulls = 0;
      applied = 0;
      failures = 0;
      process.send!({ armed: round });
    } else if (message.collect !== undefined) {
      report(message.collect);
    } else if (message.stop) {
      for (const socket of sockets) socket.destroy();
      for (const device of devices) device.agent.destroy();
      process.exit(0);
    }
  },
);
process.send!({ ready: true });
