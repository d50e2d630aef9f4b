import { becomeUser, type Database, type JwtClaims, type Tx } from '../db/database.ts';
import { batched } from '../db/batched.ts';
import type { CollectionName, PullResponse, SyncCheckpoint } from '../../src/domain/collections/index.ts';
import type { ServerCollection } from './collections.ts';
import {
  asSeenBy,
  knownRows,
  pullChanges,
  restartsFeed,
  scopeKeyOf,
  shownRows,
  type ChangedRow,
  type Doc,
} from './pull.ts';
import { inReadSnapshot } from './snapshot.ts';
import { parseScope } from './working-set.ts';

/**
 * Who may see a catalog row for a reason of their own, read past RLS: RLS (`deals_read`) shows a deal
 * to everyone of a role and Pro membership when it is open or completed (and not Pro-only, or they
 * are Pro), and besides that to the deal's brand and to the creators who applied to it. Given a feed
 * position ($1, $2) and the pullers ($3), this names those of them with such a reason for a row past
 * the position: each of them is read as themself. Everyone else of the same role and Pro membership
 * sees the same rows, so one read under RLS as one of them answers them all.
 * A catalog collection without an entry here is never shared (each device reads its own pull).
 * `tests/sync/shared-catalog-pulls.pg.test.ts` holds the policy to this: if `deals_read` changes,
 * this list must be read again.
 */
const PERSONAL_READERS: Partial<Record<CollectionName, string>> = {
  deals: `select distinct r.reader::text as id
            from public.deals t
           cross join lateral (select t.brand_id union all
                               select a.creator_id from public.applications a where a.deal_id = t.id) r(reader)
           where (t.change_xid, t.id) > ($1::xid8, $2::uuid)
             and t.change_xid < pg_snapshot_xmin(pg_current_snapshot())
             and r.reader = any($3::uuid[])`,
};

/**
 * Pulls that arrive together go in one read of at most this many; at most `READS_AT_ONCE` such reads
 * run at once per collection (each holds one pooled connection for a few milliseconds), later pulls
 * wait for one of them to end and go together in the next.
 */
const MAX_PULLS_PER_READ = 2_000;
const READS_AT_ONCE = 4;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type CatalogPull = { claims: JwtClaims; checkpoint: SyncCheckpoint; limit: number; deviceLimit: number };
/** The user as Postgres writes a uuid (lower case), which is how the reads below name them. */
const userOf = (pull: CatalogPull) => pull.claims.sub.toLowerCase();
type Viewer = { scope: string; sameRowsAs: string };

/**
 * `pullChanges` for every collection, with the incremental pulls of catalog collections read together:
 * after a catalog notice every online device pulls from the same checkpoint, and those pulls become one
 * read-only transaction for all of them (docs/decisions/027-shared-catalog-reads.md). In it, once: the
 * tombstone horizon and every puller's role and Pro membership, the rows each distinct checkpoint and
 * scope could have held (past RLS, as a single pull reads them) and who has a personal reason to see a
 * row past the checkpoint; then, under RLS, the page once per group of pullers RLS shows the same rows
 * (same role, Pro membership, and no personal reason) — read as one of them — and once per puller who
 * has one. Every answer is exactly the pull the device would have read alone in that snapshot, and
 * every read starts after the pulls it answers arrived (nothing is served from a cache).
 *
 * Fresh feeds, checkpoints that restart the feed (another scope, a purge since), and requests with
 * the service role or no user id go through `pullChanges` alone.
 */
export function sharedCatalogPulls(db: Database) {
  const readers = new Map<string, (pull: CatalogPull) => Promise<PullResponse<Doc> | null>>();

  return async function pull(
    claims: JwtClaims,
    collection: ServerCollection,
    checkpoint: SyncCheckpoint | null,
    limit: number,
    deviceLimit: number,
  ): Promise<PullResponse<Doc>> {
    const personalReaders = PERSONAL_READERS[collection.name];
    if (
      collection.spec.scope !== 'catalog' ||
      personalReaders === undefined ||
      checkpoint === null ||
      // A device holding a bounded working set reads a set of its own.
      parseScope(checkpoint.scope ?? '').bound !== null ||
      claims.role === 'service_role' ||
      !UUID.test(claims.sub)
    )
      return pullChanges(db, claims, collection, checkpoint, limit, deviceLimit);
    let read = readers.get(collection.name);
    if (!read) {
      read = batched((pulls: CatalogPull[]) => readTogether(db, collection, personalReaders, pulls), {
        max: MAX_PULLS_PER_READ,
        lanes: READS_AT_ONCE,
      });
      readers.set(collection.name, read);
    }
    return (
      (await read({ claims, checkpoint, limit, deviceLimit })) ??
      pullChanges(db, claims, collection, checkpoint, limit, deviceLimit)
    );
  };
}

/**
 * The answers of a batch of catalog pulls; null for a pull that restarts the feed or whose device can
 * no longer hold every deal it may see (both read on their own, which bounds the working set).
 */
async function readTogether(
  db: Database,
  collection: ServerCollection,
  personalReadersSql: string,
  pulls: CatalogPull[],
): Promise<(PullResponse<Doc> | null)[]> {
  return inReadSnapshot(db, pulls[0]!.claims, async (tx) => {
    const users = [...new Set(pulls.map(userOf))];
    const { rows } = await tx.query<{
      horizon: string;
      id: string;
      role: string | null;
      pro: boolean;
      deleted: boolean;
    }>(
      `select coalesce((select purged_xid::text from sync.purge_watermarks where collection = $1), '0') as horizon,
              u.id::text as id, p.role, public.is_pro_user(u.id) as pro, coalesce(p.deleted, false) as deleted
         from unnest($2::uuid[]) as u(id) left join public.profiles p on p.id = u.id`,
      [collection.name, users],
    );
    const horizon = rows[0]!.horizon;
    const viewers = new Map<string, Viewer>(
      rows.map((r) => {
        const scope = scopeKeyOf(r);
        // RLS's admin check also asks that the profile is not deleted.
        return [r.id, { scope, sameRowsAs: `${scope}:${r.deleted ? 'deleted' : 'live'}` }];
      }),
    );

    // One page per distinct position and scope (after a notice, nearly every device is at the same one).
    type Page = {
      from: { xid: string; id: string };
      scope: string;
      limit: number;
      pulls: number[];
    };
    const pages = new Map<string, Page>();
    pulls.forEach((p, i) => {
      const { scope } = viewers.get(userOf(p))!;
      if (restartsFeed(p.checkpoint, { horizon, scope })) return;
      const key = `${p.checkpoint.xid}/${p.checkpoint.id}/${p.limit}/${scope}/${p.deviceLimit}`;
      let page = pages.get(key);
      if (!page)
        pages.set(
          key,
          (page = { from: { xid: p.checkpoint.xid, id: p.checkpoint.id }, scope, limit: p.limit, pulls: [] }),
        );
      page.pulls.push(i);
    });

    // Past RLS still: the rows each page's scope could have held, and who has a reason of their own to
    // see a row past its position.
    const known = new Map<Page, { known: ChangedRow[]; held: boolean }>();
    const personal = new Map<Page, Set<string>>();
    for (const page of pages.values()) {
      known.set(page, await knownRows(tx, collection, page.from, page.scope, page.limit));
      const pullers = [...new Set(page.pulls.map((i) => userOf(pulls[i]!)))];
      const readers = await tx.query<{ id: string }>(personalReadersSql, [page.from.xid, page.from.id, pullers]);
      personal.set(page, new Set(readers.rows.map((r) => r.id)));
    }

    // Under RLS from here on: once per group that sees the same rows, once per personal reader.
    const answers: (PullResponse<Doc> | null)[] = pulls.map(() => null);
    for (const page of pages.values()) {
      const { known: knownOfPage, held } = known.get(page)!;
      const answerOf = new Map<string, PullResponse<Doc> | null>();
      for (const i of page.pulls) {
        const user = userOf(pulls[i]!);
        const viewer = viewers.get(user)!;
        const key = personal.get(page)!.has(user) ? `user:${user}` : `rows:${viewer.sameRowsAs}`;
        if (answerOf.has(key)) {
          answers[i] = answerOf.get(key)!;
          continue;
        }
        let answer: PullResponse<Doc> | null = null;
        await becomeUser(tx, pulls[i]!.claims);
        if (viewer.scope.startsWith('admin:') || (await everythingFits(tx, pulls[i]!.deviceLimit))) {
          const shown = await shownRows(tx, collection, page.from, page.limit, false);
          const rows = asSeenBy(knownOfPage, shown, page.limit);
          const last = rows.at(-1);
          const position = last ? { xid: last.xid, id: last.doc.id } : page.from;
          answer = { documents: rows.map((r) => r.doc), checkpoint: { ...position, scope: viewer.scope, horizon } };
          if (rows.length < page.limit && held) answer.pending = true;
        }
        answerOf.set(key, answer);
        answers[i] = answer;
      }
    }
    return answers;
  });
}

/**
 * Whether the device can still hold every deal the user may see (read as the user: call after
 * `becomeUser`). A device whose checkpoint has no working-set bound holds them all; once they outgrow
 * the limit its pull is read on its own, which chooses a bound (working-set.ts).
 */
async function everythingFits(tx: Tx, deviceLimit: number): Promise<boolean> {
  const { rows } = await tx.query<{ n: number }>({
    name: 'pull-shared-fits',
    text: `select count(*)::int as n from (select 1 from public.deals t where not t.deleted limit $1) x`,
    values: [deviceLimit + 1],
  });
  return rows[0]!.n <= deviceLimit;
}
