import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import os from 'node:os';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { DEAL_EMAIL_KINDS, DEAL_EMAIL_LABELS, type DealEmailKind } from '../../src/domain/deal-emails.ts';
import type { Database } from '../db/database.ts';

/** A claimed e-mail is this instance's alone for this long (longer than one SMTP send may take). */
const LEASE_SECONDS = 120;
const BATCH = 50;

/** The key unsubscribe links are signed with, made by the first instance that starts, shared by all. */
export async function loadEmailLinkKey(db: Database): Promise<KeyObject> {
  const stored = await db.asService(async (tx) => {
    const { rows } = await tx.query<{ secret: string }>(
      `with made as (
         insert into pacta_private.email_link_keys (secret) values ($1)
         on conflict (singleton) do nothing returning secret)
       select secret from made
       union all
       select secret from pacta_private.email_link_keys where not exists (select 1 from made)`,
      [randomBytes(32).toString('base64url')],
    );
    // Two instances starting together: the loser's statement predates the winner's row; a new one sees it.
    return rows[0] ?? (await tx.query<{ secret: string }>('select secret from pacta_private.email_link_keys')).rows[0];
  });
  if (!stored) throw new Error('the e-mail link key could not be stored');
  return createSecretKey(Buffer.from(stored.secret, 'base64url'));
}

const mac = (key: KeyObject, payload: string) =>
  createHmac('sha256', key).update(`unsubscribe:${payload}`).digest().subarray(0, 16);

/** A token naming one user and one kind, signed: the unsubscribe link works without signing in. */
export function unsubscribeToken(key: KeyObject, userId: string, kind: DealEmailKind): string {
  const payload = Buffer.from(JSON.stringify([userId, kind])).toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/** The user and kind a token names, or undefined when it was not signed by this server. */
export function openUnsubscribeToken(
  key: KeyObject,
  token: string,
): { userId: string; kind: DealEmailKind } | undefined {
  const [payload, tag, extra] = token.split('.');
  if (!payload || !tag || extra !== undefined) return undefined;
  const given = Buffer.from(tag, 'base64url');
  const expected = mac(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const [userId, kind] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof userId !== 'string' || !DEAL_EMAIL_KINDS.includes(kind as DealEmailKind)) return undefined;
    return { userId, kind: kind as DealEmailKind };
  } catch {
    return undefined;
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * One e-mail: the notification's title and text, a link to the deal, and the one-click unsubscribe
 * (RFC 8058: `List-Unsubscribe` with an https URL and `List-Unsubscribe-Post`, so a mail client
 * unsubscribes with one POST and a link scanner's GET changes nothing).
 */
export function composeDealEmail(msg: {
  kind: DealEmailKind;
  title: string;
  message: string;
  link: string;
  unsubscribeUrl: string;
}): { subject: string; text: string; html: string; headers: Record<string, string> } {
  const why = `You get this e-mail because "${DEAL_EMAIL_LABELS[msg.kind]}" is on in Settings → Notifications.`;
  const text = `${msg.message}\n\nOpen it in Pacta: ${msg.link}\n\n${why}\nUnsubscribe: ${msg.unsubscribeUrl}\n`;
  const html =
    `<p>${escapeHtml(msg.message)}</p><p><a href="${escapeHtml(msg.link)}">Open it in Pacta</a></p>` +
    `<p style="color:#666">${escapeHtml(why)} <a href="${escapeHtml(msg.unsubscribeUrl)}">Unsubscribe</a></p>`;
  return {
    subject: msg.title,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${msg.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

type Claimed = {
  id: string;
  user_id: string;
  kind: DealEmailKind;
  to_email: string | null;
  title: string;
  message: string;
  link: string | null;
};

/**
 * Sends the queued deal e-mails. Every instance runs it: rows are claimed with FOR UPDATE SKIP LOCKED
 * and a lease, so each is sent by one instance; a row whose user opted out since it was queued is
 * dropped. Without SMTP (a developer's machine) the composed e-mail stays on the row for the dev
 * mailbox and counts as delivered.
 */
export function createDealEmailSender(opts: {
  db: Database;
  publicUrl: string;
  smtp: { url: string; from: string } | undefined;
  key: KeyObject;
  log: FastifyBaseLogger;
}) {
  const transport = opts.smtp ? nodemailer.createTransport(opts.smtp.url) : undefined;
  const claimant = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  async function claim(): Promise<Claimed[]> {
    const { rows } = await opts.db.pool.query<Claimed>(
      `with due as (
         select e.id from pacta_private.deal_emails e
          where e.sent_at is null and (e.lease_until is null or e.lease_until < now())
          order by e.queued_at limit $2 for update skip locked)
       update pacta_private.deal_emails e
          set claimed_by = $1, lease_until = now() + make_interval(secs => $3)
         from due, public.notifications n, auth.users u
        where e.id = due.id and n.id = e.notification_id and u.id = e.user_id
       returning e.id, e.user_id, e.kind, u.email as to_email, n.title, n.message, n.data ->> 'link' as link`,
      [claimant, BATCH, LEASE_SECONDS],
    );
    return rows;
  }

  async function sendOne(row: Claimed): Promise<void> {
    const optedOut = await opts.db.pool.query(
      `select 1 from pacta_private.email_opt_outs where user_id = $1 and kind = $2`,
      [row.user_id, row.kind],
    );
    if (optedOut.rowCount || !row.to_email) {
      await opts.db.pool.query(`delete from pacta_private.deal_emails where id = $1 and claimed_by = $2`, [
        row.id,
        claimant,
      ]);
      return;
    }
    const unsubscribeUrl = `${opts.publicUrl}/api/email/unsubscribe?token=${unsubscribeToken(opts.key, row.user_id, row.kind)}`;
    const email = composeDealEmail({
      kind: row.kind,
      title: row.title,
      message: row.message,
      link: `${opts.publicUrl}${row.link ?? '/dashboard'}`,
      unsubscribeUrl,
    });
    let error: string | null = null;
    if (transport && opts.smtp) {
      try {
        await transport.sendMail({
          from: opts.smtp.from,
          to: row.to_email,
          subject: email.subject,
          text: email.text,
          html: email.html,
          headers: email.headers,
        });
      } catch (err) {
        error = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
        opts.log.error({ emailId: row.id, reason: error }, 'deal e-mail not sent');
      }
    }
    // A failed send keeps its lease: tried again when it runs out, not at once in a loop.
    await opts.db.pool.query(
      `update pacta_private.deal_emails
          set to_email = $3, subject = $4, text_body = $5, html_body = $6,
              sent_at = case when $7::text is null then now() end, send_error = $7
        where id = $1 and claimed_by = $2`,
      [row.id, claimant, row.to_email, email.subject, email.text, email.html, error],
    );
  }

  return {
    /** Sends what is due now; resolves with how many rows it handled. */
    async run(): Promise<number> {
      let handled = 0;
      for (;;) {
        const rows = await claim();
        for (const row of rows) await sendOne(row);
        handled += rows.length;
        if (rows.length < BATCH) return handled;
      }
    },
  };
}
