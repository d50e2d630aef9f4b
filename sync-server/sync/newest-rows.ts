import type { Tx } from '../db/database.ts';
import type { CollectionName } from '../../src/domain/collections/index.ts';
import type { ServerCollection } from './collections.ts';
import type { Doc } from './pull.ts';

/**
 * The collections a first screen lists (the dashboard, the deals, the swipe deck). Reading a
 * collection's newest rows costs a pass over every row the user may read, checked against row-level
 * security (for a brand's 50,000 applications about as long as a page of the feed), so other
 * collections' first pages stay in change order.
 */
const LISTED_FIRST = new Set<CollectionName>(['deals', 'applications']);

/**
 * The rows a fresh device's first screen shows: a collection's newest `count` live rows the user may
 * read (RLS applies: call after `becomeUser`), as of the same snapshot and bound as the feed they lead
 * (`streamFreshFeed`), in the order the app lists them (newest first, then by id). The feed itself
 * comes in change order, which its checkpoints need and which puts the oldest rows first. Deals the
 * user is party to come first, as the dashboard lists them: a brand's own deals, then a creator's
 * deals in the order of their applications, then the other deals it keeps (saved, messaged about),
 * most recently kept first. None for a collection no first screen lists.
 */
export async function newestRows(tx: Tx, collection: ServerCollection, userId: string, count: number): Promise<Doc[]> {
  if (!LISTED_FIRST.has(collection.name)) return [];
  const deals = collection.name === 'deals';
  const result = await tx.query<{ doc: Doc }>({
    name: `fresh-newest-${collection.name}`,
    text: deals
      ? `select ${collection.documentSql} as doc
           from ${collection.relation} t
           left join public.applications a on a.deal_id = t.id and a.creator_id = $2::uuid
           left join public.kept_deals k on k.user_id = $2::uuid and k.deal_id = t.id
          where t.change_xid < pg_snapshot_xmin(pg_current_snapshot()) and not t.deleted
          order by t.brand_id = $2::uuid desc, a.created_at desc nulls last, a.id nulls last,
                   k.kept_at desc nulls last, t.created_at desc, t.id
          limit $1`
      : `select ${collection.documentSql} as doc
           from ${collection.relation} t
          where t.change_xid < pg_snapshot_xmin(pg_current_snapshot()) and not t.deleted
          order by t.created_at desc, t.id
          limit $1`,
    values: deals ? [count, userId] : [count],
  });
  return result.rows.map((r) => r.doc);
}
