import type { Database, JwtClaims, Tx } from '../db/database.ts';
import type { BucketLimits, ObjectMetadata } from './ingest.ts';
import { storageErrors } from './storage-errors.ts';

/** An object's row as Storage's API lists it. */
export type ObjectRow = {
  id: string;
  name: string;
  bucket_id: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
  metadata: ObjectMetadata | null;
  user_metadata: Record<string, unknown> | null;
};

/** Who asks: a signed-in user's claims, or nobody (public reads only). */
export type Requester = JwtClaims | null;

const ROW = `id, name, bucket_id, owner, owner_id, version, created_at, updated_at, last_accessed_at, metadata, user_metadata`;

/**
 * Runs `work` under row-level security as the requester: the user (role authenticated, their claims
 * in request.jwt.claims, exactly as Supabase's Storage does) or, for nobody, role anon.
 */
export function asRequester<T>(db: Database, who: Requester, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (who) return db.asUser(who, work);
  return db.asService(async (tx) => {
    await tx.query(
      `select set_config('request.jwt.claims', '{"role":"anon"}', true), set_config('role', 'anon', true)`,
    );
    return work(tx);
  });
}

/** A bucket's rules from storage.buckets (read by the server: bucket settings are no secret). */
export async function findBucket(db: Database, id: string): Promise<BucketLimits> {
  const { rows } = await db.pool.query<{
    id: string;
    public: boolean;
    file_size_limit: string | null;
    allowed_mime_types: string[] | null;
  }>('select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1', [id]);
  const row = rows[0];
  if (!row) throw storageErrors.noSuchBucket();
  return {
    id: row.id,
    public: row.public,
    maxBytes: row.file_size_limit === null ? Number.MAX_SAFE_INTEGER : Number(row.file_size_limit),
    allowedTypes: row.allowed_mime_types ?? [],
  };
}

/** Postgres refused a write by row-level security (or a missing privilege). */
function isPolicyRefusal(err: unknown): boolean {
  return (err as { code?: string }).code === '42501';
}

class Rollback extends Error {}

/**
 * Whether the user may create an object of this name, asked before any byte is received: the insert
 * is tried under row-level security and rolled back. The final write checks again.
 */
export async function checkMayWrite(db: Database, claims: JwtClaims, bucketId: string, name: string): Promise<void> {
  try {
    await db.asUser(claims, async (tx) => {
      await tx.query(
        `insert into storage.objects (bucket_id, name, owner, owner_id, metadata)
         values ($1, $2, $3::uuid, $3::text, '{}') on conflict (bucket_id, name) do nothing`,
        [bucketId, name, claims.sub],
      );
      throw new Rollback();
    });
  } catch (err) {
    if (err instanceof Rollback) return;
    if (isPolicyRefusal(err)) throw storageErrors.accessDenied();
    throw err;
  }
}

/** Refuses a file that would take the user past their quota (all their objects together). */
export async function checkQuota(
  db: Database,
  userId: string,
  incomingBytes: number,
  quotaBytes: number,
): Promise<void> {
  const { rows } = await db.pool.query<{ used: string }>('select pacta_private.storage_bytes_used($1) as used', [
    userId,
  ]);
  if (Number(rows[0]?.used ?? 0) + incomingBytes > quotaBytes) throw storageErrors.quotaExceeded();
}

/**
 * Writes an object's row as the user, under row-level security, in one transaction with `place`
 * (which moves the file in): the quota is checked under a per-user lock (two uploads at once cannot
 * both squeeze under it), an existing object is replaced only with upsert, and the file is in place
 * before the row commits. If anything fails, `place`'s files are the caller's to remove; no row is left.
 */
export async function writeObject(
  db: Database,
  claims: JwtClaims,
  input: {
    bucketId: string;
    name: string;
    version: string;
    metadata: ObjectMetadata;
    upsert: boolean;
    quotaBytes: number;
  },
  place: () => Promise<void>,
): Promise<{ id: string; replacedVersion: string | null }> {
  try {
    return await db.asUser(claims, async (tx) => {
      await tx.query(`select pg_advisory_xact_lock(hashtext('pacta.storage.quota'), hashtext($1))`, [claims.sub]);
      const existing = (
        await tx.query<{ id: string; version: string | null; owner_id: string | null; size: string | null }>(
          `select id, version, owner_id, metadata ->> 'size' as size from storage.objects
            where bucket_id = $1 and name = $2 for update`,
          [input.bucketId, input.name],
        )
      ).rows[0];
      if (existing && !input.upsert) throw storageErrors.alreadyExists();
      const used = Number(
        (await tx.query<{ used: string }>('select pacta_private.storage_bytes_used($1) as used', [claims.sub])).rows[0]
          ?.used ?? 0,
      );
      const freed = existing && existing.owner_id === claims.sub ? Number(existing.size ?? 0) : 0;
      if (used - freed + input.metadata.size > input.quotaBytes) throw storageErrors.quotaExceeded();
      let id: string;
      if (existing) {
        await tx.query(
          `update storage.objects set owner = $2::uuid, owner_id = $2::text, version = $3, metadata = $4,
                  last_accessed_at = now() where id = $1`,
          [existing.id, claims.sub, input.version, input.metadata],
        );
        id = existing.id;
      } else {
        const inserted = await tx.query<{ id: string }>(
          `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
           values ($1, $2, $3::uuid, $3::text, $4, $5) returning id`,
          [input.bucketId, input.name, claims.sub, input.version, input.metadata],
        );
        id = inserted.rows[0]!.id;
      }
      await place();
      return { id, replacedVersion: existing?.version ?? null };
    });
  } catch (err) {
    if (isPolicyRefusal(err)) throw storageErrors.accessDenied();
    // Someone else's object of that name, which this user may not see.
    if ((err as { code?: string }).code === '23505') throw storageErrors.alreadyExists();
    throw err;
  }
}

/** The object, if the requester may read it. */
export async function readObject(
  db: Database,
  who: Requester,
  bucketId: string,
  name: string,
): Promise<ObjectRow | undefined> {
  return asRequester(db, who, async (tx) => {
    const { rows } = await tx.query<ObjectRow>(
      `select ${ROW} from storage.objects where bucket_id = $1 and name = $2`,
      [bucketId, name],
    );
    return rows[0];
  });
}

/** A public bucket's object, for anyone: public buckets are read without policies, as in Storage. */
export async function readPublicObject(db: Database, bucketId: string, name: string): Promise<ObjectRow | undefined> {
  const { rows } = await db.pool.query<ObjectRow>(
    `select ${ROW.split(', ')
      .map((c) => `o.${c}`)
      .join(', ')} from storage.objects o
       join storage.buckets b on b.id = o.bucket_id and b.public
      where o.bucket_id = $1 and o.name = $2`,
    [bucketId, name],
  );
  return rows[0];
}

/** Removes the objects the user may delete among `names`; returns their rows (their files are the caller's to remove). */
export async function deleteObjects(
  db: Database,
  claims: JwtClaims,
  bucketId: string,
  names: string[],
): Promise<ObjectRow[]> {
  return db.asUser(claims, async (tx) => {
    const { rows } = await tx.query<ObjectRow>(
      `delete from storage.objects where bucket_id = $1 and name = any ($2::text[]) returning ${ROW}`,
      [bucketId, names],
    );
    return rows;
  });
}

export type ListOptions = {
  prefix: string;
  limit: number;
  offset: number;
  sortBy: { column: 'name' | 'created_at' | 'updated_at' | 'last_accessed_at'; order: 'asc' | 'desc' };
  search: string;
};

/**
 * One level of a bucket under `prefix`, as Storage's list answers it: the objects right under it and
 * one entry (id null) per folder below, only what the requester may read.
 */
export async function listObjects(db: Database, who: Requester, bucketId: string, opts: ListOptions) {
  const folder = opts.prefix === '' || opts.prefix.endsWith('/') ? opts.prefix : `${opts.prefix}/`;
  const order = `${opts.sortBy.column === 'name' ? 'name' : opts.sortBy.column} ${opts.sortBy.order === 'desc' ? 'desc' : 'asc'}`;
  return asRequester(db, who, async (tx) => {
    const { rows } = await tx.query(
      `with under as (
         select substr(o.name, char_length($2) + 1) as rest, o.*
           from storage.objects o
          where o.bucket_id = $1 and starts_with(o.name, $2)
       ), entries as (
         select split_part(rest, '/', 1) as name, strpos(rest, '/') > 0 as is_folder,
                id, created_at, updated_at, last_accessed_at, metadata
           from under
       )
       select name,
              case when is_folder then null else (array_agg(id))[1] end as id,
              case when is_folder then null else max(updated_at) end as updated_at,
              case when is_folder then null else max(created_at) end as created_at,
              case when is_folder then null else max(last_accessed_at) end as last_accessed_at,
              case when is_folder then null else (array_agg(metadata))[1] end as metadata
         from entries
        where $3 = '' or name ilike '%' || $3 || '%'
        group by name, is_folder
        order by ${order} nulls first, name
        limit $4 offset $5`,
      [bucketId, folder, opts.search, opts.limit, opts.offset],
    );
    return rows;
  });
}
