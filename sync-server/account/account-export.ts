import type { Tx } from '../db/database.ts';
import type { AccountExport } from '../../src/domain/contracts/account.ts';

type Row = Record<string, unknown>;

/** A table's rows as JSON, without the sync bookkeeping (a transaction id means nothing to a person). */
const rowsOf = (alias: string) =>
  `coalesce(jsonb_agg(to_jsonb(${alias}) - 'change_xid' order by ${alias}.created_at), '[]')`;

/**
 * Everything one person owns or is a party to, read in one snapshot: their profile, the deals they
 * published or work on, applications (theirs, and those to their deals), the deal logs, their
 * conversations and every message in them, reviews by or about them, their tickets, lists, drafts and
 * notifications, the escrows and ledger rows of their deals, and the list of files they stored (the
 * files themselves are downloaded from the app).
 */
export async function readAccountExport(tx: Tx, userId: string): Promise<AccountExport> {
  await tx.query('set transaction isolation level repeatable read, read only');
  const one = async (sql: string): Promise<Row[]> => {
    const { rows } = await tx.query<{ rows: Row[] }>(sql, [userId]);
    return rows[0]!.rows;
  };
  const account = await tx.query<{ id: string; email: string | null; created_at: Date | null }>(
    `select id, email, created_at from auth.users where id = $1`,
    [userId],
  );
  const profile = await tx.query<{ profile: Row }>(
    `select to_jsonb(p) - 'change_xid' as profile from public.profiles p where p.id = $1`,
    [userId],
  );
  // The deals they are a party to: published, selected for, paid by, or applied to.
  const theirDeals = `select d.id from public.deals d
     where d.brand_id = $1 or $1 = any (d.selected_creator_ids) or d.winner_id = $1
        or exists (select 1 from public.applications a where a.deal_id = d.id and a.creator_id = $1)`;
  const deals = await one(`select ${rowsOf('d')} as rows from public.deals d where d.id in (${theirDeals})`);
  const applications = await one(
    `select ${rowsOf('a')} as rows from public.applications a
      where a.creator_id = $1 or a.deal_id in (select id from public.deals where brand_id = $1)`,
  );
  const dealEvents = await one(
    `select ${rowsOf('e')} as rows from public.deal_events e
      where e.application_id in (select a.id from public.applications a
                                  where a.creator_id = $1 or a.deal_id in (select id from public.deals where brand_id = $1))`,
  );
  const conversations = await one(
    `select ${rowsOf('c')} as rows from public.conversations c where $1 in (c.user1_id, c.user2_id)`,
  );
  const messages = await one(
    `select ${rowsOf('m')} as rows from public.messages m
      where m.conversation_id in (select c.id from public.conversations c where $1 in (c.user1_id, c.user2_id))
        and not m.deleted`,
  );
  const reviews = await one(
    `select ${rowsOf('r')} as rows from public.reviews r where $1 in (r.reviewer_id, r.reviewee_id)`,
  );
  const tickets = await one(`select ${rowsOf('t')} as rows from public.support_tickets t where t.user_id = $1`);
  const ticketMessages = await one(
    `select ${rowsOf('s')} as rows from public.support_messages s
      where s.ticket_id in (select t.id from public.support_tickets t where t.user_id = $1)`,
  );
  const savedLists = await one(
    `select ${rowsOf('l')} as rows from public.saved_lists l where l.user_id = $1 and not l.deleted`,
  );
  const drafts = await one(`select ${rowsOf('d')} as rows from public.drafts d where d.user_id = $1 and not d.deleted`);
  const notifications = await one(
    `select ${rowsOf('n')} as rows from public.notifications n where n.user_id = $1 and not n.deleted`,
  );
  // Money they are a party to: escrows of deals they fund or are paid from, and those deals' ledger rows
  // (amounts and dates; Stripe's own ids stay with staff).
  const escrows = await one(
    `select coalesce(jsonb_agg(jsonb_build_object(
              'deal_id', e.deal_id, 'amount_cents', e.amount_cents, 'service_fee_cents', e.service_fee_cents,
              'funded_at', e.funded_at, 'released_at', e.released_at, 'transferred_cents', e.transferred_cents,
              'commission_cents', e.commission_cents, 'refunded_cents', e.refunded_cents, 'refunded_at', e.refunded_at,
              'disputed_at', e.disputed_at, 'resolved_at', e.resolved_at) order by e.updated_at), '[]') as rows
       from public.deal_escrows e
      where e.brand_id = $1 or e.creator_id = $1`,
  );
  const ledger = await one(
    `select coalesce(jsonb_agg(jsonb_build_object(
              'id', l.id, 'deal_id', l.deal_id, 'kind', l.kind, 'amount_cents', l.amount_cents, 'memo', l.memo,
              'created_at', l.created_at, 'yours', l.user_id = $1) order by l.id), '[]') as rows
       from public.ledger_entries l
      where l.user_id = $1
         or l.deal_id in (select e.deal_id from public.deal_escrows e where e.brand_id = $1 or e.creator_id = $1)`,
  );
  const files = await tx.query<{
    bucket: string;
    name: string;
    size: string | null;
    content_type: string | null;
    created_at: Date | null;
  }>(
    `select o.bucket_id as bucket, o.name, o.metadata ->> 'size' as size, o.metadata ->> 'mimetype' as content_type, o.created_at
       from storage.objects o where o.owner_id = $1::text order by o.created_at`,
    [userId],
  );
  const user = account.rows[0]!;
  return {
    format: 'pacta-export/1',
    exported_at: new Date().toISOString(),
    account: { id: user.id, email: user.email, created_at: user.created_at?.toISOString() ?? null },
    profile: profile.rows[0]?.profile ?? null,
    deals,
    applications,
    deal_events: dealEvents,
    conversations,
    messages,
    reviews,
    support_tickets: tickets,
    support_messages: ticketMessages,
    saved_lists: savedLists,
    drafts,
    notifications,
    payments: { escrows, ledger },
    files: files.rows.map((f) => ({
      bucket: f.bucket,
      name: f.name,
      size: f.size === null ? null : Number(f.size),
      content_type: f.content_type,
      created_at: f.created_at?.toISOString() ?? null,
    })),
  };
}
