import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { queryParam } from './request-helpers.ts';
import type { AuthServices } from './services.ts';

type OutboxRow = {
  id: string;
  to_email: string;
  kind: string;
  subject: string;
  text_body: string;
  html_body: string;
  action_link: string;
  otp: string;
  created_at: Date;
  sent_at: Date | null;
};

const MAILBOX_STYLE = `
body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}
li{list-style:none;border-bottom:1px solid #ccc;padding:.5rem 0}a{word-break:break-all}
`;
/** The server's CSP allows no inline style: this page's own block is allowed by its hash. */
const MAILBOX_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(MAILBOX_STYLE).digest('base64')}'`,
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A developer's machine only (registered when no SMTP is configured): the auth e-mails that would have
 * been sent, as a page for people (`/dev/mailbox`) and as JSON for tests (`/dev/mailbox.json?email=`).
 * It lists every account's sign-in and recovery links, so a deployment never serves it, SMTP or not.
 */
export async function devMailboxRoutes(app: FastifyInstance, opts: { services: AuthServices }): Promise<void> {
  const { db, config } = opts.services.ctx;
  if (config.mode !== 'development') return;

  async function messages(email: string | undefined): Promise<OutboxRow[]> {
    const { rows } = await db.pool.query<OutboxRow>(
      `select id, to_email, kind, subject, text_body, html_body, action_link, otp, created_at, sent_at
       from auth.pacta_email_outbox where $1::text is null or lower(to_email) = lower($1)
       order by created_at desc, id limit 200`,
      [email ?? null],
    );
    return rows;
  }

  app.get('/dev/mailbox.json', async (request) => {
    const email = queryParam(request, 'email');
    const rows = await messages(email);
    // The deal e-mails (offers, drafts, changes, payouts) as composed for SMTP, newest first.
    const deal = await db.pool.query<{
      id: string;
      to_email: string;
      kind: string;
      subject: string;
      text_body: string;
    }>(
      `select id::text, to_email, kind, subject, text_body from pacta_private.deal_emails
        where subject is not null and ($1::text is null or lower(to_email) = lower($1))
        order by queued_at desc, id desc limit 200`,
      [email ?? null],
    );
    return {
      dealEmails: deal.rows.map((m) => ({
        id: m.id,
        to: m.to_email,
        kind: m.kind,
        subject: m.subject,
        text: m.text_body,
      })),
      messages: rows.map((m) => ({
        id: m.id,
        to: m.to_email,
        kind: m.kind,
        subject: m.subject,
        text: m.text_body,
        html: m.html_body,
        action_link: m.action_link,
        token_hash: new URL(m.action_link).searchParams.get('token'),
        otp: m.otp,
        created_at: m.created_at.toISOString(),
      })),
    };
  });

  app.get('/dev/mailbox', async (request, reply) => {
    const rows = await messages(queryParam(request, 'email'));
    const items = rows
      .map(
        (m) => `<li><article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p>To <strong>${escapeHtml(m.to_email)}</strong> · ${escapeHtml(m.created_at.toISOString())}</p>
  <p><a href="${escapeHtml(m.action_link)}">${escapeHtml(m.action_link)}</a></p>
</article></li>`,
      )
      .join('\n');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', MAILBOX_CSP).send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pacta dev mailbox</title>
<style>${MAILBOX_STYLE}</style>
</head><body><h1>Dev mailbox</h1>
<p>Auth e-mails of this local server (newest first). Nothing here is sent; configure SMTP_URL to send real mail.</p>
${rows.length ? `<ul>${items}</ul>` : '<p>No messages yet.</p>'}
</body></html>`);
  });
}
