import type pg from 'pg';
import webpush from 'web-push';
import { notificationLink } from '../../src/domain/notification-link.ts';
import { pushPayload, type PushPayload } from '../../src/domain/contracts/push.ts';
import type { Database } from '../db/database.ts';
import { claimantName } from '../jobs/job-claims.ts';
import type { VapidKeys } from './vapid-keys.ts';
import { deliverPush } from './push-delivery.ts';
import { checkPushEndpoint, PushEndpointRefused, type PushEndpointPolicy } from './push-endpoint.ts';

export const PUSH_CHANNEL = 'pacta_push';

type Claimed = {
  id: string;
  title: string;
  message: string;
  data: Record<string, unknown>;
  endpoint: string;
  p256dh: string;
  auth: string;
};

export type PushSender = {
  /** Sends everything queued now; resolves with the number of push requests made. */
  drain(): Promise<number>;
  close(): Promise<void>;
};

type Log = { warn(obj: unknown, msg: string): void };

/** Queued notifications one claim takes. */
const BATCH = 100;
/** Notifications sent at once by one instance. */
const SEND_CONCURRENCY = 8;
/** How long a claimed, not yet started notification is this instance's alone (a send takes 10 s at most). */
const LEASE_MS = 60_000;
/** A send marked this long ago and still queued belongs to an instance that stopped mid-send. */
const ABANDONED_AFTER_MS = 10 * 60_000;

/**
 * Delivers queued notifications (pacta_private.push_outbox) to their users' subscribed devices.
 * Several server instances run this. Each claims queued rows with FOR UPDATE SKIP LOCKED and a lease
 * (a claim of an instance that died is taken over when the lease runs out), marks a row as being sent
 * right before its requests go out (a mark only the claim's holder can set, once), and deletes it when
 * they are answered: a notification is pushed by one instance, at most once. Woken by NOTIFY
 * pacta_push, and every `sweepMs` in case a notice was missed (a dropped LISTEN connection). A
 * subscription the push service answers 404 or 410 is gone for good and is deleted.
 */
export function startPushSender(
  db: Database,
  keys: VapidKeys,
  log: Log,
  opts: { sweepMs?: number; endpointPolicy?: PushEndpointPolicy } = {},
): PushSender {
  const endpointPolicy = opts.endpointPolicy ?? { trustedOrigins: [] };
  const claimant = claimantName();
  let closed = false;
  let running: Promise<number> | undefined;
  let again = false;
  let listener: pg.PoolClient | undefined;
  let retry: NodeJS.Timeout | undefined;

  /** Takes up to a batch of queued notifications nobody holds (or whose holder's lease ran out). */
  async function claim(): Promise<number[]> {
    const { rows } = await db.pool.query<{ id: number }>(
      `update pacta_private.push_outbox o set claimed_by = $1, lease_until = now() + $2 * interval '1 millisecond'
        where o.id in (select id from pacta_private.push_outbox
                        where sending_since is null and (lease_until is null or lease_until <= now())
                        order by id limit $3 for update skip locked)
       returning o.id`,
      [claimant, LEASE_MS, BATCH],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Marks a claimed notification as being sent, right before its requests go out, and reads them
   * (one per subscribed device). Only the instance still holding the claim can set the mark, and only
   * once: undefined when another instance took the claim over, so the notification is sent at most once.
   */
  async function startSending(outboxId: number): Promise<Claimed[] | undefined> {
    return db.asService(async (tx) => {
      const started = await tx.query(
        `update pacta_private.push_outbox set sending_since = now()
          where id = $1 and claimed_by = $2 and sending_since is null returning 1`,
        [outboxId, claimant],
      );
      if (started.rows.length === 0) return undefined;
      const { rows } = await tx.query<Claimed>(
        `select distinct n.id, n.title, n.message, n.data, s.endpoint, s.p256dh, s.auth
           from pacta_private.push_outbox o
           join public.notifications n on n.id = o.notification_id and n.read_at is null and not n.deleted
           join pacta_private.push_subscriptions s on s.user_id = n.user_id
          where o.id = $1`,
        [outboxId],
      );
      return rows;
    });
  }

  /** Sends one claimed notification to its devices; resolves with the number of push requests made. */
  async function deliver(outboxId: number): Promise<number> {
    const sends = await startSending(outboxId);
    if (!sends) return 0;
    // One device's failure (a key web-push cannot use) neither stops the others nor leaves the row behind.
    await Promise.all(
      sends.map((row) =>
        send(row).catch((err: unknown) =>
          log.warn({ err, endpoint: new URL(row.endpoint).origin }, 'push delivery failed'),
        ),
      ),
    );
    await db.pool.query('delete from pacta_private.push_outbox where id = $1', [outboxId]);
    return sends.length;
  }

  /** Sends marked long ago whose instance stopped before deleting them: nobody knows if they arrived. */
  async function forgetAbandonedSends(): Promise<void> {
    const { rowCount } = await db.pool.query(
      `delete from pacta_private.push_outbox where sending_since < now() - $1 * interval '1 millisecond'`,
      [ABANDONED_AFTER_MS],
    );
    if (rowCount) log.warn({ notifications: rowCount }, 'pushes whose sender stopped mid-send were not sent again');
  }

  async function send(row: Claimed): Promise<void> {
    const conversationId = typeof row.data.conversation_id === 'string' ? row.data.conversation_id : undefined;
    const payload: PushPayload = {
      title: row.title,
      body: row.message,
      url: notificationLink(row.data),
      // One notification per conversation on the device too: a newer one replaces it.
      tag: conversationId ? `conversation:${conversationId}` : `notification:${row.id}`,
      notificationId: row.id,
    };
    // web-push signs (VAPID) and encrypts (aes128gcm); the request goes only to the address checked
    // just now (the host may resolve elsewhere than when the device subscribed).
    const request = webpush.generateRequestDetails(
      { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
      // The service worker reads exactly this shape (workers/sw.ts).
      JSON.stringify(pushPayload.parse(payload)),
      {
        vapidDetails: keys,
        TTL: 24 * 3600,
        urgency: 'normal',
      },
    );
    const origin = URL.canParse(row.endpoint) ? new URL(row.endpoint).origin : 'invalid';
    try {
      const target = await checkPushEndpoint(row.endpoint, endpointPolicy);
      const status = await deliverPush(target, {
        method: request.method,
        headers: request.headers as Record<string, string | number>,
        body: request.body ?? null,
      });
      if (status === 404 || status === 410) {
        await db.asService((tx) =>
          tx.query('delete from pacta_private.push_subscriptions where endpoint = $1', [row.endpoint]),
        );
      } else if (status >= 200 && status < 300) {
        await db.asService((tx) =>
          tx.query('update pacta_private.push_subscriptions set last_used_at = now() where endpoint = $1', [
            row.endpoint,
          ]),
        );
      } else {
        log.warn({ status, endpoint: origin }, 'push service refused a notification');
      }
    } catch (err) {
      if (err instanceof PushEndpointRefused && err.code !== 'push_endpoint_not_found') {
        // Not a push service on the open internet (any more): nothing is sent there, now or later.
        log.warn({ code: err.code, endpoint: origin }, 'push subscription dropped: its endpoint is not allowed');
        await db.asService((tx) =>
          tx.query('delete from pacta_private.push_subscriptions where endpoint = $1', [row.endpoint]),
        );
      } else {
        log.warn({ err, endpoint: origin }, 'push delivery failed');
      }
    }
  }

  async function drainOnce(): Promise<number> {
    await forgetAbandonedSends();
    let sent = 0;
    for (;;) {
      const queue = await claim();
      if (queue.length === 0) return sent;
      // A few at a time: each takes a pooled connection to mark its send, and the pool serves requests too.
      const worker = async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) sent += await deliver(id);
      };
      await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, queue.length) }, worker));
    }
  }

  function drain(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = drainOnce()
      .catch((err: unknown) => {
        log.warn({ err }, 'push outbox drain failed');
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again && !closed) {
          again = false;
          void drain();
        }
      });
    return running;
  }

  const released = new WeakSet<pg.PoolClient>();
  function releaseOnce(c: pg.PoolClient): void {
    if (released.has(c)) return;
    released.add(c);
    c.release(true);
  }

  async function listen(): Promise<void> {
    if (closed) return;
    try {
      const c = await db.session.connect();
      c.on('notification', (msg) => {
        if (msg.channel === PUSH_CHANNEL) void drain();
      });
      c.on('error', () => {
        if (listener === c) listener = undefined;
        // An error can follow close() or another error: the client goes back (destroyed) only once,
        // since pg-pool throws on a second release and that would end the process.
        releaseOnce(c);
        if (!closed) retry = setTimeout(() => void listen(), 1_000);
      });
      await c.query(`listen ${PUSH_CHANNEL}`);
      if (closed) {
        releaseOnce(c);
        return;
      }
      listener = c;
      void drain();
    } catch (err) {
      log.warn({ err }, 'push listener could not connect');
      retry = setTimeout(() => void listen(), 2_000);
    }
  }

  const sweep = setInterval(() => void drain(), opts.sweepMs ?? 30_000);
  sweep.unref();
  void listen();

  return {
    drain,
    async close() {
      closed = true;
      clearInterval(sweep);
      if (retry) clearTimeout(retry);
      const c = listener;
      listener = undefined;
      if (c) {
        await c.query(`unlisten ${PUSH_CHANNEL}`).catch(() => {});
        releaseOnce(c);
      }
      await running;
    },
  };
}
