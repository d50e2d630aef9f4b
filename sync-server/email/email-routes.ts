import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { getEmailPreferences, putEmailPreference } from '../../src/domain/contracts/email.ts';
import { DEAL_EMAIL_KINDS, DEAL_EMAIL_LABELS } from '../../src/domain/deal-emails.ts';
import type { AppContext } from '../app.ts';
import { queryParam } from '../auth/request-helpers.ts';
import { claimsOf, signedIn } from '../auth/signed-in.ts';
import { HttpError } from '../http/errors.ts';
import { createDealEmailSender, loadEmailLinkKey, openUnsubscribeToken } from './deal-emails.ts';

/** How often each instance sends the queued deal e-mails. */
const SEND_EVERY_MS = 15_000;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Pacta</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

/**
 * Deal e-mails: the sender (every instance, claimed rows), the per-kind preferences of the signed-in
 * user, and the one-click unsubscribe link (a signed token, no sign-in: RFC 8058's POST, and a page
 * with a button for a person who opens the link, since a GET must change nothing).
 */
export async function emailRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const keyReady = loadEmailLinkKey(ctx.db);
  keyReady.catch(() => {}); // awaited where used; an unhandled rejection must not end the process
  const sender = keyReady.then((key) =>
    createDealEmailSender({
      db: ctx.db,
      publicUrl: ctx.config.publicUrl,
      smtp: ctx.config.smtp,
      key,
      log: app.log,
    }),
  );
  const run = () => {
    sender.then((s) => s.run()).catch((err: unknown) => app.log.error({ err }, 'sending deal e-mails failed'));
  };
  const timer = setInterval(run, SEND_EVERY_MS);
  timer.unref();
  app.addHook('onReady', async () => run());
  app.addHook('onClose', async () => clearInterval(timer));

  async function tokenFrom(token: string | undefined) {
    const opened = token ? openUnsubscribeToken(await keyReady, token) : undefined;
    if (!opened) throw new HttpError(400, 'invalid_token', 'This unsubscribe link is not valid.');
    return opened;
  }

  // The unsubscribe link's two routes answer an HTML page (to a mail client or a person following the
  // link), not JSON, so they keep their own token check and are not among the contracts.
  app.get('/email/unsubscribe', async (request, reply) => {
    const token = queryParam(request, 'token');
    const { kind } = await tokenFrom(token);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        page(
          'Unsubscribe',
          `<p>Stop e-mails for “${escapeHtml(DEAL_EMAIL_LABELS[kind])}”? The bell and push notifications stay on.</p>
<form method="post" action="/api/email/unsubscribe?token=${encodeURIComponent(token!)}">
<input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
        ),
      );
  });

  // RFC 8058: the mail client POSTs `List-Unsubscribe=One-Click` as a form; the token is in the URL.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    scope.post('/email/unsubscribe', async (request, reply) => {
      const { userId, kind } = await tokenFrom(queryParam(request, 'token'));
      await ctx.db.pool.query(
        `insert into pacta_private.email_opt_outs (user_id, kind) select id, $2 from public.profiles where id = $1
         on conflict do nothing`,
        [userId, kind],
      );
      return reply
        .type('text/html; charset=utf-8')
        .send(
          page(
            'Unsubscribed',
            `<p>You will no longer get e-mails for “${escapeHtml(DEAL_EMAIL_LABELS[kind])}”. Turn them back on in Settings → Notifications.</p>`,
          ),
        );
    });
  });

  const api = app.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(ctx);

  api.get('/email/preferences', { schema: getEmailPreferences, preValidation }, async (request) => {
    const { sub } = claimsOf(request);
    const { rows } = await ctx.db.pool.query<{ kind: string }>(
      `select kind from pacta_private.email_opt_outs where user_id = $1`,
      [sub],
    );
    const off = new Set(rows.map((r) => r.kind));
    return {
      emails: DEAL_EMAIL_KINDS.map((kind) => ({ kind, label: DEAL_EMAIL_LABELS[kind], enabled: !off.has(kind) })),
    };
  });

  api.put(
    '/email/preferences',
    {
      schema: putEmailPreference,
      preValidation,
      config: {
        invalid: { code: 'invalid_request', body: `Send a kind (${DEAL_EMAIL_KINDS.join(', ')}) and enabled.` },
      },
    },
    async (request) => {
      const { sub } = claimsOf(request);
      const { kind, enabled } = request.body;
      await ctx.db.pool.query(
        enabled
          ? `delete from pacta_private.email_opt_outs where user_id = $1 and kind = $2`
          : `insert into pacta_private.email_opt_outs (user_id, kind) values ($1, $2) on conflict do nothing`,
        [sub, kind],
      );
      return { kind, enabled };
    },
  );
}
