import { createHash } from 'node:crypto';
import type { Tx } from '../db/database.ts';
import { WORKING_SET_SEPARATOR } from '../../src/domain/contracts/change-stream.ts';

/**
 * The deals a device holds: its working set, decided here on the server.
 *
 * - **Party deals, always**: the user's own deals and the deals they keep (`public.kept_deals`:
 *   applied to, saved, messaged about, invited to, opened from an online search). None of them ever
 *   leaves the set while the user may read it.
 * - **The catalogue deals that matter most**, ranked per user by `RANK_KEY`: open deals first, then
 *   those in the user's niches, then the newest (the deal-side terms of the recommendation score
 *   that Postgres can rank by: shared niches and freshness). The set holds them down to a bound, the
 *   rank key of the last deal it holds, chosen so the whole set holds at most `limit` deals.
 *
 * When every deal the user may read fits in the limit there is no bound (`null`): the device holds
 * what row-level security shows, as before the working set. The bound is carried in the sealed
 * checkpoint's scope (`scopeWithSet`), so a page is read against the bound the device holds; when the
 * server moves it, the scope changes and the feed restarts (`reset`): the device reads its new set and
 * drops what the feed no longer has, keeping changes it has not pushed yet (never lost work). The
 * bound moves only when the set has grown past the limit or shrunk below `LOW` of it, and then to
 * `TARGET` of it, so new deals do not restart the feed one by one.
 */
export type SetBound = { open: number; match: number; created: string; id: string };

/** A device's set as a page reads it: whose, and where the catalogue part ends (null: no bound). */
export type DeviceSet = { userId: string; niches: readonly string[]; bound: SetBound | null };

/** The set is refilled to this share of the limit when its bound moves. */
const TARGET = 0.9;
/** A bounded set below this share of the limit takes more of the catalogue. */
const LOW = 0.75;

/** A bound above every deal: a set that holds party deals only (more of them than the limit). */
const ABOVE_ALL: SetBound = { open: 2, match: 0, created: '-infinity', id: '00000000-0000-0000-0000-000000000000' };

/** The rank of deal `t` for a user whose niches are the parameter `niches` (higher first). */
const rankKey = (niches: string) =>
  `((t.status = 'open')::int, (t.niches && ${niches}::text[])::int, t.created_at, t.id)`;

/** Whether deal `t` is one the user (parameter `user`) is party to. */
const partySql = (user: string) =>
  `(t.brand_id = ${user}::uuid or exists (select 1 from public.kept_deals k where k.user_id = ${user}::uuid and k.deal_id = t.id))`;

/**
 * SQL (over alias `t`) for "deal `t` is in the set", with parameters from `$first`: user, niches, and
 * the bound's four parts. `setParams` gives their values.
 */
export function inSetSql(first: number): string {
  const p = (i: number) => `$${first + i}`;
  return `(${partySql(p(0))} or ${rankKey(p(1))} >= (${p(2)}::int, ${p(3)}::int, ${p(4)}::timestamptz, ${p(5)}::uuid))`;
}

export function setParams(set: DeviceSet & { bound: SetBound }): unknown[] {
  return [set.userId, set.niches, set.bound.open, set.bound.match, set.bound.created, set.bound.id];
}

/** The checkpoint scope of a device holding `bound`: the role scope, and the bound with the niches it ranks by. */
export function scopeWithSet(base: string, set: DeviceSet): string {
  if (!set.bound) return base;
  const { open, match, created, id } = set.bound;
  return `${base}${WORKING_SET_SEPARATOR}${open},${match},${created},${id},${nichesKey(set.niches)}`;
}

/** The parts of a checkpoint scope: the role scope, and the bound its device holds (null: none). */
export function parseScope(scope: string): { base: string; bound: SetBound | null; nichesKey: string | null } {
  const at = scope.indexOf(WORKING_SET_SEPARATOR);
  if (at < 0) return { base: scope, bound: null, nichesKey: null };
  const [open, match, created, id, key] = scope.slice(at + 1).split(',');
  return {
    base: scope.slice(0, at),
    bound: { open: Number(open), match: Number(match), created: created ?? '', id: id ?? '' },
    nichesKey: key ?? null,
  };
}

/** A short key of the niches a bound ranks by: a device whose user changed niches gets a new bound. */
export function nichesKey(niches: readonly string[]): string {
  return createHash('sha256')
    .update(JSON.stringify([...niches].sort()))
    .digest('base64url')
    .slice(0, 10);
}

/**
 * The bound of the user's set, read as the user (row-level security applies: call after `becomeUser`).
 * `previous` is the bound the device holds (null: none; undefined: it holds nothing, or ranked by other
 * niches); it is kept while the set it gives holds between `LOW` and all of the limit.
 */
export async function decideBound(
  tx: Tx,
  user: { id: string; niches: readonly string[]; admin: boolean },
  previous: SetBound | null | undefined,
  limit: number,
): Promise<SetBound | null> {
  // Staff screens read the whole catalogue.
  if (user.admin) return null;
  const party = partySql('$1');
  const key = rankKey('$2');
  const { rows } = await tx.query<{ party: number; others: number; held: number | null }>(
    `select (select count(*)::int from public.deals t where not t.deleted and ${party}) as party,
            (select count(*)::int from (select 1 from public.deals t where not t.deleted and not ${party} limit $3) x) as others,
            case when $4::int is null then null else
              (select count(*)::int from public.deals t where not t.deleted and not ${party}
                  and ${key} >= ($4::int, $5::int, $6::timestamptz, $7::uuid)) end as held`,
    [
      user.id,
      user.niches,
      limit + 1,
      previous?.open ?? null,
      previous?.match ?? null,
      previous?.created ?? null,
      previous?.id ?? null,
    ],
  );
  const counts = rows[0]!;
  if (counts.party + counts.others <= limit) return null;
  if (previous && counts.held !== null) {
    const held = counts.party + counts.held;
    if (held <= limit && held >= Math.floor(LOW * limit)) return previous;
  }
  const room = Math.floor(TARGET * limit) - counts.party;
  if (room <= 0) return ABOVE_ALL;
  const last = await tx.query<SetBound>(
    `select (t.status = 'open')::int as open, (t.niches && $2::text[])::int as match,
            t.created_at::text as created, t.id::text as id
       from public.deals t
      where not t.deleted and not ${party}
      order by ${key} desc
      offset $3 limit 1`,
    [user.id, user.niches, room - 1],
  );
  return last.rows[0] ?? null;
}
