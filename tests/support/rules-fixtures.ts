import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type pg from 'pg';
import type { Database } from '../../sync-server/db/database.ts';

export type Role = 'creator' | 'brand' | 'admin';

/** A confirmed user with a profile of that role, made the way sign-up makes one (plus the operator's admin step). */
export async function makeUser(db: Database, role: Role, opts: { pro?: boolean; name?: string } = {}): Promise<string> {
  const id = randomUUID();
  await db.asService(async (tx) => {
    await tx.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(), $3)`,
      [
        id,
        `${role}-${id.slice(0, 8)}@example.test`,
        { role: role === 'admin' ? 'creator' : role, full_name: opts.name ?? `Test ${role}` },
      ],
    );
    await tx.query(
      `insert into public.profiles (id, role, full_name) values ($1, $2, $3)
       on conflict (id) do update set role = excluded.role`,
      [id, role, opts.name ?? `Test ${role}`],
    );
    if (opts.pro)
      await tx.query(`update public.profiles set pro_tier = 'premium', pro_since = now() where id = $1`, [id]);
  });
  return id;
}

/** Runs one statement as the signed-in user (role authenticated, RLS applies). */
export function asUser(db: Database, userId: string, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  return db.asUser({ sub: userId, role: 'authenticated' }, (tx) => tx.query(sql, params));
}

/** Runs one statement signed out (role anon, no claims). */
export function asAnon(db: Database, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  return db.asService(async (tx) => {
    await tx.query(`select set_config('role', 'anon', true)`);
    return tx.query(sql, params);
  });
}

export function asServer(db: Database, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  return db.asService((tx) => tx.query(sql, params));
}

/** A deal published by `brandId` (as the brand, through RLS and the rules). */
export async function makeDeal(db: Database, brandId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const row = {
    id: randomUUID(),
    title: 'Summer launch',
    description: 'Two posts about our product',
    amount_cents: 50_000,
    niches: ['Fitness'],
    ...fields,
  };
  const cols = Object.keys(row);
  await asUser(
    db,
    brandId,
    `insert into public.deals (brand_id, ${cols.join(', ')}) values ($1, ${cols.map((_, i) => `$${i + 2}`).join(', ')})`,
    [brandId, ...Object.values(row)],
  );
  return row.id;
}

export async function apply(db: Database, creatorId: string, dealId: string, id = randomUUID()): Promise<string> {
  await asUser(
    db,
    creatorId,
    `insert into public.applications (id, deal_id, creator_id, pitch) values ($1, $2, $3, 'Pick me')`,
    [id, dealId, creatorId],
  );
  return id;
}

/** Asserts a write was refused by a Pacta rule (SQLSTATE class PT) with that machine code. */
export async function expectRule(
  promise: Promise<unknown>,
  code: string,
  status?: number,
): Promise<{ detail?: string; hint?: string }> {
  const err = (await promise.then(
    () => {
      throw new Error(`expected the write to be rejected with ${code}`);
    },
    (e: unknown) => e,
  )) as { code?: string; message?: string; detail?: string; hint?: string };
  expect({ message: err.message, sqlstateClass: err.code?.slice(0, 2) }).toEqual({
    message: code,
    sqlstateClass: 'PT',
  });
  if (status) expect(err.code).toBe(`PT${status}`);
  return err;
}

/** Asserts Postgres refused the statement for lack of privilege or an RLS check (SQLSTATE 42501). */
export async function expectDenied(promise: Promise<unknown>): Promise<void> {
  const err = (await promise.then(
    () => {
      throw new Error('expected permission denied');
    },
    (e: unknown) => e,
  )) as { code?: string };
  expect(err.code).toBe('42501');
}
