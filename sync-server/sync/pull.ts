import type { Database, JwtClaims, Tx } from '../db/database.ts';
import {
  snapshotPageLimit,
  type CollectionName,
  type PullResponse,
  type SyncCheckpoint,
} from '../../src/domain/collections/index.ts';
import { quoteIdent, type ServerCollection } from './collections.ts';
import { newestRows } from './newest-rows.ts';
import { inReadSnapshot } from './snapshot.ts';
import {
  decideBound,
  inSetSql,
  nichesKey,
  parseScope,
  scopeWithSet,
  setParams,
  type DeviceSet,
} from './working-set.ts';

export type Doc = Record<string, unknown> & { id: string; _deleted: boolean };

const ZERO_ID = '00000000-0000-0000-0000-000000000000';

/**
 * One page of a collection's change feed for one user.
 *
 * Rows are ordered by (change_xid, id) and only rows of transactions older than the snapshot's
 * xmin are read: a transaction still running can commit later with a smaller xid than rows already
 * served, and this bound makes the feed wait for it instead of skipping its rows.
 *
 * A fresh feed (no checkpoint, or a reset) serves live rows only. An incremental page of a catalog
 * collection also reads the changed rows past RLS that the user's scope was shown at or before the
 * checkpoint, and sends `{ id, _deleted: true }` for those the user can no longer see; a row the
 * device could never have held is not sent at all (`knownRows`, `asSeenBy`). A deals feed is also
 * bounded by the device's working set (working-set.ts): its bound rides in the scope. A checkpoint issued for another
 * scope, or older than the tombstone purge watermark, restarts the feed (`reset: true`); the client
 * drops what it does not see again.
 */
export async function pullChanges(
  db: Database,
  claims: JwtClaims,
  collection: ServerCollection,
  checkpoint: SyncCheckpoint | null,
  limit: number,
  deviceLimit: number,
): Promise<PullResponse<Doc>> {
  return inReadSnapshot(db, claims, async (tx, becomeUser) => {
    const position = await feedPosition(tx, collection, claims.sub);
    const { horizon } = position;
    const catalog = collection.spec.scope === 'catalog';
    const held = catalog && checkpoint !== null ? parseScope(checkpoint.scope ?? '') : undefined;
    // Past RLS, before becoming the user: the rows a device in this role scope could have held.
    const baseHolds =
      held !== undefined && !restartsFeed({ ...checkpoint!, scope: held.base }, { horizon, scope: position.scope });
    const from0 = checkpoint === null ? { xid: '0', id: ZERO_ID } : { xid: checkpoint.xid, id: checkpoint.id };
    const known = baseHolds ? await knownRows(tx, collection, from0, position.scope!, limit) : undefined;

    await becomeUser();
    const set = catalog ? await deviceSet(tx, collection, claims.sub, position, held, baseHolds, deviceLimit) : null;
    const scope = set ? scopeWithSet(position.scope!, set) : position.scope;

    const reset = checkpoint !== null && restartsFeed(checkpoint, { horizon, scope });
    const fresh = checkpoint === null || reset;
    const from = fresh ? { xid: '0', id: ZERO_ID } : from0;

    let rows: { doc: Doc; xid: string }[];
    let pending = false;
    if (catalog && !fresh) {
      rows = asSeenBy(known!.known, await shownRows(tx, collection, from, limit, false, set ?? undefined), limit);
      // A keep newer than an open transaction is held back like a changed row: the page is pending, or
      // the device would think itself in step and miss the kept deal until the next change.
      pending = rows.length < limit && (known!.held || (!!set?.bound && (await keepsHeldBack(tx, claims.sub, from))));
    } else {
      ({ rows, pending } = await ownPage(tx, collection, from, limit, fresh, set ?? undefined));
    }
    const last = rows.at(-1);
    const at = last ? { xid: last.xid, id: last.doc.id } : from;
    const response: PullResponse<Doc> = {
      documents: rows.map((r) => r.doc),
      // Always a position, even for an empty fresh feed: it records the scope and the tombstone horizon
      // the device is now in step with (a client holding documents but no checkpoint had nothing to send).
      checkpoint: { ...at, scope, horizon },
    };
    if (reset) response.reset = true;
    if (pending) response.pending = true;
    return response;
  });
}

/**
 * The working set of the device (catalog collections; see working-set.ts), read as the user: the bound
 * its checkpoint holds is kept while it still fits, else a new one is chosen.
 */
async function deviceSet(
  tx: Tx,
  collection: ServerCollection,
  userId: string,
  position: FeedPosition,
  held: ReturnType<typeof parseScope> | undefined,
  baseHolds: boolean,
  deviceLimit: number,
): Promise<DeviceSet | null> {
  if (collection.name !== 'deals') return null;
  const niches = position.niches;
  const previous = !baseHolds
    ? undefined
    : held!.bound === null
      ? null
      : held!.nichesKey === nichesKey(niches)
        ? held!.bound
        : undefined;
  const bound = await decideBound(tx, { id: userId, niches, admin: position.admin }, previous, deviceLimit);
  return { userId, niches, bound };
}

/**
 * Whether a checkpoint must restart the feed (`reset: true`): it was issued for another scope, or it is
 * older than the tombstone purge watermark its copy was built against.
 */
export function restartsFeed(checkpoint: SyncCheckpoint, now: { horizon: string; scope: string | null }): boolean {
  const purgedSince = BigInt(checkpoint.xid) <= BigInt(now.horizon) && BigInt(checkpoint.horizon) < BigInt(now.horizon);
  return purgedSince || checkpoint.scope !== now.scope;
}

/**
 * A fresh feed read page after page in ONE snapshot, for a device that holds nothing yet: `onPage`
 * gets each page as `pullChanges` would serve it (one request, one transaction and one plan for the
 * whole feed instead of one per page, and no round trip between pages). Every page is a position a
 * later pull can continue from; reading them all in one snapshot is the same as a run of pulls
 * between which nothing committed, so no row is skipped, and the last page carries `pending` like
 * any pull. Rows deleted before the snapshot are not sent (the device never
 * held them). The first page is small (`snapshotPageLimit`): a fresh device shows something after
 * writing it. For the deals and the applications it holds the newest rows (`newestRows`), sent again
 * in their place in the feed, and the pages after it are full ones. Stops after the page that is not full (against its own limit), or
 * early when `onPage` answers false (the client then pulls on from the last page it received).
 */
export async function streamFreshFeed(
  db: Database,
  claims: JwtClaims,
  collection: ServerCollection,
  limit: number,
  deviceLimit: number,
  onPage: (page: PullResponse<Doc>) => Promise<boolean>,
): Promise<void> {
  await inReadSnapshot(db, claims, async (tx, becomeUser) => {
    const position = await feedPosition(tx, collection, claims.sub);
    const { horizon } = position;
    await becomeUser();
    const set =
      collection.spec.scope === 'catalog'
        ? await deviceSet(tx, collection, claims.sub, position, undefined, false, deviceLimit)
        : null;
    const scope = set ? scopeWithSet(position.scope!, set) : position.scope;
    let from = { xid: '0', id: ZERO_ID };
    let index = 0;
    // A first screenful of the newest rows leads, at the feed's start position: a pull from it reads
    // the whole feed, which sends those rows again. Only a full one: a short first page ends a stream.
    // Not for a bounded working set, whose rows the feed places by their keeps.
    const head = set?.bound ? [] : await newestRows(tx, collection, claims.sub, snapshotPageLimit(0, limit));
    if (head.length > 0 && head.length === snapshotPageLimit(0, limit)) {
      if (!(await onPage({ documents: head, checkpoint: { ...from, scope, horizon } }))) return;
      index = 1;
    }
    for (; ; index++) {
      const pageLimit = snapshotPageLimit(index, limit);
      const { rows, pending } = await ownPage(tx, collection, from, pageLimit, true, set ?? undefined);
      const last = rows.at(-1);
      if (last) from = { xid: last.xid, id: last.doc.id };
      const page: PullResponse<Doc> = { documents: rows.map((r) => r.doc), checkpoint: { ...from, scope, horizon } };
      if (pending) page.pending = true;
      const more = await onPage(page);
      if (rows.length < pageLimit || !more) return;
    }
  });
}

/**
 * The tombstone horizon of the collection and (catalog collections) the user's scope key, in one
 * query: every statement of a pull is a round trip to Postgres, and a pull after a change notice is
 * on the path from a commit to the screen.
 */
type FeedPosition = { horizon: string; scope: string | null; niches: string[]; admin: boolean };

async function feedPosition(tx: Tx, collection: ServerCollection, userId: string): Promise<FeedPosition> {
  const catalog = collection.spec.scope === 'catalog';
  const { rows } = await tx.query<{
    horizon: string;
    role: string | null;
    pro: boolean | null;
    niches: string[] | null;
  }>({
    name: catalog ? 'pull-position-catalog' : 'pull-position',
    text: catalog
      ? `select coalesce((select purged_xid::text from sync.purge_watermarks where collection = $1), '0') as horizon,
                p.role, public.is_pro_user($2) as pro, p.niches
           from (select 1) one left join public.profiles p on p.id = $2`
      : `select coalesce((select purged_xid::text from sync.purge_watermarks where collection = $1), '0') as horizon`,
    values: catalog ? [collection.name, userId] : [collection.name],
  });
  const row = rows[0]!;
  return {
    horizon: row.horizon,
    scope: catalog ? scopeKeyOf(row) : null,
    niches: row.niches ?? [],
    admin: row.role === 'admin',
  };
}

/** A page of the feed as the user sees it (RLS applies: call after `becomeUser`); a fresh one skips tombstones. */
async function ownPage(
  tx: Tx,
  collection: ServerCollection,
  from: { xid: string; id: string },
  limit: number,
  fresh: boolean,
  set?: DeviceSet,
): Promise<{ rows: { doc: Doc; xid: string }[]; pending: boolean }> {
  const rows = await shownRows(tx, collection, from, limit, fresh, set);
  const pending = rows.length < limit && (rows[0] ? rows[0].held : await heldBack(tx, collection, from));
  return { rows, pending };
}

/**
 * The first `limit` rows past `from` the user may read (RLS applies: call after `becomeUser`), each with
 * whether newer committed rows it may read are held back (`HELD_SQL`); a fresh feed skips tombstones.
 */
export async function shownRows(
  tx: Tx,
  collection: ServerCollection,
  from: { xid: string; id: string },
  limit: number,
  fresh: boolean,
  set?: DeviceSet,
): Promise<{ doc: Doc; xid: string; held: boolean }[]> {
  if (set?.bound) return setRows(tx, collection, from, limit, fresh, { ...set, bound: set.bound });
  const result = await tx.query<{ doc: Doc; xid: string; held: boolean }>({
    name: `pull-${fresh ? 'fresh' : 'next'}-${collection.name}`,
    text: `select ${collection.documentSql} as doc, t.change_xid::text as xid, ${HELD_SQL} as held
       from ${collection.relation} t
      where (t.change_xid, t.id) > ($1::xid8, $2::uuid)
        and t.change_xid < pg_snapshot_xmin(pg_current_snapshot())
        ${fresh ? 'and not t.deleted' : ''}
      order by t.change_xid, t.id
      limit $3`.replaceAll('$relation', collection.relation),
    values: [from.xid, from.id, limit],
  });
  return result.rows;
}

/**
 * `shownRows` for a bounded working set: the changed rows in the set and, on an incremental page, the
 * deals that entered it through a keep (`public.kept_deals`) without changing themselves, each placed
 * in the feed at its keep's change id, so a device past the deal's own position still receives it.
 */
async function setRows(
  tx: Tx,
  collection: ServerCollection,
  from: { xid: string; id: string },
  limit: number,
  fresh: boolean,
  set: DeviceSet & { bound: NonNullable<DeviceSet['bound']> },
): Promise<{ doc: Doc; xid: string; held: boolean }[]> {
  const kept = `select ${collection.documentSql} as doc, k.kept_xid as x, t.id as rid
        from public.kept_deals k join ${collection.relation} t on t.id = k.deal_id
       where k.user_id = $4::uuid
         and (k.kept_xid, t.id) > ($1::xid8, $2::uuid)
         and k.kept_xid < pg_snapshot_xmin(pg_current_snapshot())
         and (t.change_xid, t.id) <= ($1::xid8, $2::uuid)
         and not t.deleted`;
  const keptHeld = `exists (select 1 from public.kept_deals h where h.user_id = $4::uuid
         and (h.kept_xid, h.deal_id) > ($1::xid8, $2::uuid)
         and h.kept_xid >= pg_snapshot_xmin(pg_current_snapshot()))`;
  const result = await tx.query<{ doc: Doc; xid: string; held: boolean }>({
    name: `pull-${fresh ? 'fresh' : 'next'}-${collection.name}-set`,
    text: `select s.doc, s.x::text as xid, (${HELD_SQL}${fresh ? '' : ` or ${keptHeld}`}) as held from (
      select ${collection.documentSql} as doc, t.change_xid as x, t.id as rid
        from ${collection.relation} t
       where (t.change_xid, t.id) > ($1::xid8, $2::uuid)
         and t.change_xid < pg_snapshot_xmin(pg_current_snapshot())
         ${fresh ? 'and not t.deleted' : ''}
         and ${inSetSql(4)}
      ${fresh ? '' : `union all ${kept}`}) s
      order by s.x, s.rid
      limit $3`.replaceAll('$relation', collection.relation),
    values: [from.xid, from.id, limit, ...setParams(set)],
  });
  return result.rows;
}

/**
 * Which column of a catalog row records since when the user's scope was shown it (the smallest change
 * id of every version since it was first listed for them; see the migration `deal_listed_positions`):
 * Pro members are shown Pro-only deals, everyone else only the others. Admins read every row under RLS,
 * so what they could have held is what they see.
 */
const LISTED_SINCE: Partial<Record<CollectionName, (scope: string) => string>> = {
  deals: (scope) => (scope.endsWith(':pro') ? 'listed_pro_xid' : 'listed_xid'),
};

/**
 * The changed rows past `from` (read past RLS, ids and positions only) that a device in this scope
 * could have held at `from`: its scope was shown them at or before that position. Those of them the user
 * may no longer read are the page's removals. Also whether newer committed rows are held back (any row,
 * seen or not: a removal may be among them). The same for every user of a scope.
 */
export async function knownRows(
  tx: Tx,
  collection: ServerCollection,
  from: { xid: string; id: string },
  scope: string,
  limit: number,
): Promise<{ known: ChangedRow[]; held: boolean }> {
  const listedSince = LISTED_SINCE[collection.name]?.(scope);
  if (!listedSince) throw new Error(`No removal rule for catalog collection ${collection.name}`);
  const { rows } = await tx.query<{ known: ChangedRow[] | null; held: boolean }>({
    name: `pull-known-${collection.name}-${listedSince}`,
    text: `select (select json_agg(k order by k.xid8, k.id) from (
                select t.id, t.change_xid::text as xid, t.change_xid as xid8 from ${collection.relation} t
                 where (t.change_xid, t.id) > ($1::xid8, $2::uuid)
                   and t.change_xid < pg_snapshot_xmin(pg_current_snapshot())
                   and t.${quoteIdent(listedSince)} <= $1::xid8
                 order by t.change_xid, t.id
                 limit $3) k) as known,
              ${HELD_SQL} as held`.replaceAll('$relation', collection.relation),
    values: [from.xid, from.id, limit],
  });
  const known = (rows[0]!.known ?? []).map(({ id, xid }) => ({ id, xid }));
  return { known, held: rows[0]!.held };
}

export type ChangedRow = { id: string; xid: string };

/**
 * A catalog page as one user sees it, from the rows they see now (`shown`, read under RLS) and the rows
 * they could have held (`known`): in feed order, the first `limit` of both, a known row they no longer
 * see as a removal. Both lists are the first `limit` rows of theirs past the same position, so a known
 * row within the page that `shown` lacks is one the user may not read.
 */
export function asSeenBy(
  known: ChangedRow[],
  shown: { doc: Doc; xid: string }[],
  limit: number,
): { doc: Doc; xid: string }[] {
  const byId = new Map(shown.map((r) => [r.doc.id, r]));
  for (const r of known) if (!byId.has(r.id)) byId.set(r.id, { xid: r.xid, doc: { id: r.id, _deleted: true } });
  return [...byId.values()]
    .sort((a, b) => compareXid(a.xid, b.xid) || (a.doc.id < b.doc.id ? -1 : a.doc.id > b.doc.id ? 1 : 0))
    .slice(0, limit);
}

const compareXid = (a: string, b: string) => {
  const d = BigInt(a) - BigInt(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};

/**
 * Whether rows past `after` are already visible (committed) but held back by the xmin bound: an
 * older transaction is still running. No notice will necessarily follow its end (it may not touch
 * replicated tables), so the client is told to pull again shortly.
 *
 * A page answers the same question in its own statement (`HELD_SQL`, one round trip fewer on the
 * way from a commit to the screen): asked after `from` rather than after the page's last row, which is
 * the same answer, since every row the page holds is older than the snapshot's xmin and every held
 * row is not. This query is for the page that came back empty.
 */
const HELD_SQL = `exists (select 1 from $relation h
             where (h.change_xid, h.id) > ($1::xid8, $2::uuid)
               and h.change_xid >= pg_snapshot_xmin(pg_current_snapshot()))`;

/** Whether a keep of the user past `after` is held back: its transaction is newer than one still open. */
async function keepsHeldBack(tx: Tx, userId: string, after: { xid: string; id: string }): Promise<boolean> {
  const { rows } = await tx.query<{ held: boolean }>({
    name: 'pull-keeps-held',
    text: `select exists (select 1 from public.kept_deals h where h.user_id = $3::uuid
             and (h.kept_xid, h.deal_id) > ($1::xid8, $2::uuid)
             and h.kept_xid >= pg_snapshot_xmin(pg_current_snapshot())) as held`,
    values: [after.xid, after.id, userId],
  });
  return rows[0]!.held;
}

async function heldBack(tx: Tx, collection: ServerCollection, after: { xid: string; id: string }): Promise<boolean> {
  const { rows } = await tx.query<{ held: boolean }>({
    name: `pull-held-${collection.name}`,
    text: `select exists (select 1 from ${collection.relation} t
             where (t.change_xid, t.id) > ($1::xid8, $2::uuid)
               and t.change_xid >= pg_snapshot_xmin(pg_current_snapshot())) as held`,
    values: [after.xid, after.id],
  });
  return rows[0]!.held;
}

/**
 * What decides which catalog rows a user sees besides the rows themselves: role and Pro membership.
 * When it changes, rows that were invisible may have become visible without changing, so the feed
 * must restart.
 */
export function scopeKeyOf(row: { role: string | null; pro: boolean | null }): string {
  return `${row.role ?? 'none'}:${row.pro ? 'pro' : 'free'}`;
}
