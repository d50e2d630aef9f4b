import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../db/database.ts';

export type AuthEmailKind = 'signup' | 'recovery';

export type AuthMailer = {
  /** Writes the message to `auth.pacta_email_outbox` inside the caller's transaction; returns its id. */
  queue(
    tx: Tx,
    msg: { userId: string; to: string; kind: AuthEmailKind; otp: string; linkToken: string; redirectTo: string },
  ): Promise<string>;
  /**
   * After commit: sends a queued message by SMTP when configured (locally it stays in the dev mailbox),
   * in the background. The request does not wait for the mail server, so an address with an account
   * answers as fast as one without, and a failed send is logged and kept in the outbox
   * (`send_error`) instead of becoming a 500 only accounts could cause.
   */
  deliver(id: string, log: FastifyBaseLogger): void;
  /** Resolves once every background send has finished (the server awaits it on close). */
  settle(): Promise<void>;
  /**
   * Claims the address's e-mail slot in the caller's transaction: 0 when an auth e-mail may be asked
   * for now (and the slot is taken), else the seconds to wait. Claimed for every address asked
   * about, with or without an account, so the 429 tells nothing about who has one.
   */
  claimSendSlot(tx: Tx, email: string): Promise<number>;
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The e-mail offers the link only: no screen of the app takes the one-time code (the code stays
 * accepted by /auth/v1/verify for clients that ask for it), so offering it would only strand people.
 */
function compose(kind: AuthEmailKind, link: string): { subject: string; text: string; html: string } {
  const [subject, intro, action] =
    kind === 'signup'
      ? ['Confirm your Pacta sign-up', 'Follow this link to confirm your e-mail address:', 'Confirm your e-mail']
      : ['Reset your Pacta password', 'Follow this link to reset the password of your account:', 'Reset password'];
  const text = `${intro}\n\n${link}\n\nIf you did not ask for this, ignore this e-mail.\n`;
  const html =
    `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>` +
    `<p>If you did not ask for this, ignore this e-mail.</p>`;
  return { subject, text, html };
}

export function createAuthMailer(opts: {
  db: Database;
  publicUrl: string;
  smtp: { url: string; from: string } | undefined;
  minIntervalSeconds: number;
}): AuthMailer {
  const transport = opts.smtp ? nodemailer.createTransport(opts.smtp.url) : undefined;
  const inFlight = new Set<Promise<void>>();
  return {
    async queue(tx, msg) {
      const link = new URL(`${opts.publicUrl}/auth/v1/verify`);
      link.searchParams.set('token', msg.linkToken);
      link.searchParams.set('type', msg.kind);
      link.searchParams.set('redirect_to', msg.redirectTo);
      const { subject, text, html } = compose(msg.kind, link.toString());
      const { rows } = await tx.query<{ id: string }>(
        `insert into auth.pacta_email_outbox (user_id, to_email, kind, subject, text_body, html_body, action_link, otp)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
        [msg.userId, msg.to, msg.kind, subject, text, html, link.toString(), msg.otp],
      );
      return rows[0]!.id;
    },
    deliver(id, log) {
      if (!transport || !opts.smtp) return;
      const sending = send(id, log).finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    },
    async settle() {
      await Promise.all([...inFlight]);
    },
    async claimSendSlot(tx, email) {
      if (opts.minIntervalSeconds <= 0) return 0;
      const claimed = await tx.query(
        `insert into auth.pacta_email_requests as r (email, requested_at) values (lower($1), now())
         on conflict (email) do update set requested_at = now()
           where r.requested_at <= now() - make_interval(secs => $2)
         returning 1`,
        [email, opts.minIntervalSeconds],
      );
      if (claimed.rowCount) {
        // Old claims decide nothing any more: sweep a few so the table stays small.
        await tx.query(
          `delete from auth.pacta_email_requests where email in (select email from auth.pacta_email_requests
             where requested_at < now() - make_interval(secs => $1) limit 100)`,
          [opts.minIntervalSeconds],
        );
        return 0;
      }
      const { rows } = await tx.query<{ wait: number }>(
        `select greatest(1, ceil(extract(epoch from (requested_at + make_interval(secs => $2) - now()))))::int as wait
         from auth.pacta_email_requests where email = lower($1)`,
        [email, opts.minIntervalSeconds],
      );
      return rows[0]?.wait ?? opts.minIntervalSeconds;
    },
  };

  async function send(id: string, log: FastifyBaseLogger): Promise<void> {
    if (!transport || !opts.smtp) return;
    try {
      const { rows } = await opts.db.pool.query(
        `select to_email, subject, text_body, html_body from auth.pacta_email_outbox where id = $1`,
        [id],
      );
      const row = rows[0];
      if (!row) return;
      await transport.sendMail({
        from: opts.smtp.from,
        to: row.to_email,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
      });
      await opts.db.pool.query(`update auth.pacta_email_outbox set sent_at = now(), send_error = null where id = $1`, [
        id,
      ]);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      log.error({ outboxId: id, reason }, 'auth e-mail not sent');
      await opts.db.pool
        .query(`update auth.pacta_email_outbox set send_error = $2 where id = $1`, [id, reason.slice(0, 1000)])
        .catch(() => {});
    }
  }
}
