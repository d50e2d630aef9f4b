import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { getStaffOverview, type StaffOverview } from '../../src/domain/contracts/staff.ts';
import type { AppContext } from '../app.ts';
import { requireAdmin } from '../auth/authorization.ts';
import { claimsOf, signedIn } from '../auth/signed-in.ts';
import type { Tx } from '../db/database.ts';

const LIST_LIMIT = 20;

type DealLinkRow = { deal_id: string; title: string; since: Date };
const links = (rows: DealLinkRow[]) =>
  rows.map((r) => ({ dealId: r.deal_id, title: r.title, since: r.since.toISOString() }));

/** Everything the staff home counts, read in one transaction so the figures agree with each other. */
async function staffOverview(tx: Tx): Promise<StaffOverview> {
  const tickets = (
    await tx.query<{ open: number; high: number; oldest: Date | null }>(
      `select count(*)::int as open, (count(*) filter (where priority = 'high'))::int as high, min(created_at) as oldest
         from public.support_tickets where status = 'open' and not deleted`,
    )
  ).rows[0]!;
  const disputes = await tx.query<DealLinkRow & { total: number }>(
    `select d.id as deal_id, d.title, coalesce(e.disputed_at, d.updated_at) as since, count(*) over ()::int as total
       from public.deals d left join public.deal_escrows e on e.deal_id = d.id
      where d.escrow_status = 'disputed' and not d.deleted
      order by since, d.id limit $1`,
    [LIST_LIMIT],
  );
  // The same rows the job backlog counts for the automatic release (its due ones), so the two agree.
  const held = await tx.query<DealLinkRow & { total: number; held: number }>(
    `select h.deal_id, h.title, h.completed_at as since, count(*) over ()::int as total,
            (sum(h.held_cents) over ())::bigint as held
       from pacta_private.escrow_awaiting_release() h
      order by h.completed_at, h.deal_id limit $1`,
    [LIST_LIMIT],
  );
  const jobs = await tx.query<{ job: StaffOverview['jobsBehind'][number]['job']; due_items: number; oldest: Date }>(
    // Work due for minutes is work in progress (every notification queues a push at once); a job is
    // behind when its oldest item has waited longer than that.
    `select job, due_items::int, oldest_due_at as oldest from pacta_private.job_backlog()
      where due_items > 0 and oldest_due_at < now() - interval '10 minutes' order by oldest_due_at`,
  );
  return {
    tickets: { open: tickets.open, highPriority: tickets.high, oldestOpenAt: tickets.oldest?.toISOString() ?? null },
    disputes: { count: disputes.rows[0]?.total ?? 0, oldest: links(disputes.rows) },
    awaitingRelease: {
      count: held.rows[0]?.total ?? 0,
      heldCents: Number(held.rows[0]?.held ?? 0),
      oldest: links(held.rows),
    },
    jobsBehind: jobs.rows.map((r) => ({ job: r.job, dueItems: r.due_items, oldestDueAt: r.oldest.toISOString() })),
  };
}

/** /api/admin/overview: the staff home's figures (401 signed out, 403 for anyone but staff). */
export async function staffRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/admin/overview', { schema: getStaffOverview, preValidation: signedIn(ctx) }, async (request) =>
    ctx.db.asService(async (tx) => {
      await requireAdmin(tx, claimsOf(request).sub, 'Only Pacta staff can see what waits on staff.');
      return staffOverview(tx);
    }),
  );
}
