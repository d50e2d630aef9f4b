import type Stripe from 'stripe';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig, StripeSettings } from '../config.ts';
import type { Database, Tx } from '../db/database.ts';

/** What every money module needs. */
export type PaymentsDeps = {
  stripe: Stripe;
  settings: StripeSettings;
  config: ServerConfig;
  db: Database;
  log: FastifyBaseLogger;
};

/** The caller of a money endpoint, read from the database (role and Pro status are the server's). */
export type Caller = { id: string; email: string; role: 'creator' | 'brand' | 'admin' };

export async function loadCaller(tx: Tx, userId: string): Promise<Caller | undefined> {
  const { rows } = await tx.query<{ id: string; role: Caller['role']; email: string | null }>(
    `select p.id, p.role, u.email from public.profiles p left join auth.users u on u.id = p.id where p.id = $1 and not p.deleted`,
    [userId],
  );
  const row = rows[0];
  return row ? { id: row.id, role: row.role, email: row.email ?? '' } : undefined;
}

/** The lead's notification contract: a plain insert; `data` names the deal and links to it. */
export async function notify(
  tx: Tx,
  userIds: readonly string[],
  n: { type: string; title: string; message: string; dealId?: string; link?: string; extra?: Record<string, unknown> },
): Promise<void> {
  const data = {
    ...(n.dealId ? { deal_id: n.dealId, link: n.link ?? `/deals/${n.dealId}` } : n.link ? { link: n.link } : {}),
    ...n.extra,
  };
  for (const userId of new Set(userIds)) {
    await tx.query(
      `insert into public.notifications (user_id, type, title, message, data) values ($1, $2, $3, $4, $5)`,
      [userId, n.type, n.title, n.message, data],
    );
  }
}

/** A same-origin path to come back to after a hosted Stripe page; anything else falls back. */
export function safeReturnPath(path: unknown, fallback: string): string {
  return typeof path === 'string' && /^\/(?!\/)[\w\-./?=&%]*$/.test(path) ? path : fallback;
}

/** The Stripe customer of a user, created once (idempotency key per user) and kept in billing_accounts. */
export async function ensureCustomer(deps: PaymentsDeps, caller: Caller): Promise<string> {
  const existing = await deps.db.asService(async (tx) => {
    const { rows } = await tx.query<{ stripe_customer_id: string | null }>(
      `select stripe_customer_id from public.billing_accounts where user_id = $1`,
      [caller.id],
    );
    return rows[0]?.stripe_customer_id ?? undefined;
  });
  if (existing) return existing;
  const customer = await deps.stripe.customers.create(
    { email: caller.email || undefined, metadata: { user_id: caller.id } },
    { idempotencyKey: `pacta-customer-${caller.id}` },
  );
  await deps.db.asService((tx) =>
    tx.query(
      `insert into public.billing_accounts (user_id, stripe_customer_id) values ($1, $2)
       on conflict (user_id) do update
          set stripe_customer_id = coalesce(public.billing_accounts.stripe_customer_id, excluded.stripe_customer_id),
              updated_at = now()`,
      [caller.id, customer.id],
    ),
  );
  return customer.id;
}
