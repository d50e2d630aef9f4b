import { ruleRefusal } from '../db/rule-refusal.ts';
import type { DatabaseError } from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, JwtClaims, Tx } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { SYNC_COLUMN_NAMES, type SyncRejection } from '../../src/domain/collections/index.ts';
import { quoteIdent, type ServerCollection } from './collections.ts';

type Doc = Record<string, unknown> & { id: string; _deleted: boolean };
/** The advisory-lock key space of pushed document ids. */
const PUSH_LOCK_SPACE = 7_301;
/**
 * Collections whose ids are derived rather than random (a profile is its user's id, a saved list is
 * made from the user and its kind): the same id is legitimately created again, so a deletion of one the
 * server never had is not remembered against a later insert (see `early_deletions`).
 */
const DERIVED_IDS = new Set(['profiles', 'saved_lists']);
export type PushRow = { newDocumentState: Doc; assumedMasterState?: Doc | undefined };

/**
 * Writes a batch of client changes in ONE transaction as the user. Returns the conflicts: the master
 * state of every row not written as sent.
 *
 * One path for every batch: one statement reads every master, one inserts every new row, and one
 * updates every changed row that changes the same columns (each row's version guards against a
 * concurrent writer). A statement that fails for the batch (a value Postgres cannot read, a rule
 * refusing one row) is run again row by row, each in its own savepoint, so only the rows that fail
 * are refused; the fallback logs why.
 *
 * - A row whose assumed master no longer matches the master on the client-writable fields is a
 *   conflict (the server's copy wins; RxDB keeps it). The version is not compared alone: the client's
 *   own earlier push and server-side field changes bump it without conflicting with the client.
 * - A row already equal to the master (a retry of a push whose answer was lost) writes nothing.
 * - Server-owned fields are never written from a client; changing a business one (xp, escrow_status…)
 *   to a value that is neither the assumed master's nor the current master's refuses the whole batch
 *   (400 `server_owned_field`) before anything is written. The sync stamps (version, created_at, updated_at) are simply ignored: the server sets them.
 * - A write the business rules reject comes back as a conflict carrying `sync_rejection`, so the
 *   client's queue moves on and the UI can say why; so does a new row whose id a hidden row already
 *   has (`not_found`). A write outside the user's scope (RLS) refuses the whole batch with 403 `out_of_scope`.
 */
export async function pushChanges(
  db: Database,
  claims: JwtClaims,
  collection: ServerCollection,
  rows: PushRow[],
  log?: FastifyBaseLogger,
): Promise<Doc[]> {
  const ids = rows.map((r) => r.newDocumentState.id);
  if (new Set(ids).size !== ids.length) {
    throw new HttpError(400, 'validation_failed', 'Each document may appear only once in a push.');
  }
  const suspects = rows.flatMap((row) => {
    const fields = changedServerOwnedFields(collection, row);
    return fields.length ? [{ row, fields }] : [];
  });
  return db.asUser(claims, async (tx) => {
    await refuseServerOwnedChanges(tx, collection, suspects);
    // Two pushes of one document take turns: a tab reloaded while its push was still being written
    // pushes again at once, and the second push must read what the first one wrote (a deletion that
    // found no row yet would be answered as done and the insert land after it).
    await tx.query(
      `select pg_advisory_xact_lock(${PUSH_LOCK_SPACE}, k) from (select hashtext(id::text) as k from unnest($1::uuid[]) as id order by 1) ordered`,
      [ids],
    );
    const conflicts: Doc[] = [];
    const { masters, refused } = await eachOrAll(
      tx,
      collection,
      rows,
      'read',
      (batch) => readMasters(tx, collection, batch),
      log,
    );
    conflicts.push(...refused);
    const candidates: PushRow[] = [];
    const earlyDeletions: string[] = [];
    const updates: { row: PushRow; master: MasterCheck }[] = [];
    const readable = new Set(masters.keys());
    for (const row of rows) {
      if (refused.some((r) => r.id === row.newDocumentState.id) && !readable.has(row.newDocumentState.id)) continue;
      const master = masters.get(row.newDocumentState.id);
      if (!master) {
        // Created and deleted before it ever reached the server: nothing to write, but remembered (an
        // older push of its insert may still be on its way; see below).
        if (row.newDocumentState._deleted && !DERIVED_IDS.has(collection.name))
          earlyDeletions.push(row.newDocumentState.id);
        else candidates.push(row);
      } else if (master.new_equal) {
        // A retry of a push whose answer was lost: already written.
        continue;
      } else if (!row.assumedMasterState || !master.assumed_equal) {
        conflicts.push(master.doc);
      } else {
        updates.push({ row, master });
      }
    }
    if (earlyDeletions.length)
      await tx.query(`select pacta_private.record_early_deletions($1, $2::uuid[])`, [collection.name, earlyDeletions]);
    // An insert of a row this user already deleted before it reached the server is a late copy of an
    // older push (a tab reloaded while it was in flight): the deletion stands, and is the answer.
    const deletedEarly = candidates.length
      ? new Set(
          (
            await tx.query<{ id: string }>(`select pacta_private.early_deletions_of($1, $2::uuid[]) as id`, [
              collection.name,
              candidates.map((r) => r.newDocumentState.id),
            ])
          ).rows.map((r) => r.id),
        )
      : new Set<string>();
    const inserts = candidates.filter((row) => !deletedEarly.has(row.newDocumentState.id));
    for (const row of candidates)
      if (deletedEarly.has(row.newDocumentState.id)) conflicts.push({ ...row.newDocumentState, _deleted: true });
    const inserted = await eachOrAll(
      tx,
      collection,
      inserts,
      'insert',
      (batch) => insertRows(tx, collection, batch),
      log,
    );
    conflicts.push(...inserted.refused);
    conflicts.push(...(await updateAll(tx, collection, updates, log)));
    return conflicts;
  });
}

/** Business server-owned fields whose value in the new state differs from the assumed master. */
function changedServerOwnedFields(collection: ServerCollection, row: PushRow): string[] {
  const assumed = row.assumedMasterState;
  if (!assumed) return [];
  // The sync stamps are rewritten by the server on every write, so a client holding newer stamps than
  // its assumed master (its copy already carries a later pull) changes nothing: not an error.
  return collection.serverOwned.filter(
    (field) =>
      !(SYNC_COLUMN_NAMES as readonly string[]).includes(field) &&
      !sameJson(row.newDocumentState[field], assumed[field]),
  );
}

/**
 * A server-owned value that differs from the assumed master is still fine when it is the server's
 * current value: the device merged a newer master into its copy (a conflict resolved on the server's
 * state) while its record of the assumed master lagged behind. Anything else refuses the whole batch
 * (400 `server_owned_field`) before a row is written.
 */
async function refuseServerOwnedChanges(
  tx: Tx,
  collection: ServerCollection,
  suspects: { row: PushRow; fields: string[] }[],
): Promise<void> {
  if (suspects.length === 0) return;
  const { rows: masters } = await tx.query<{ id: string; doc: Doc }>(
    `select t.id, ${collection.documentSql} as doc from ${collection.relation} t where t.id = any($1::uuid[])`,
    [suspects.map((s) => s.row.newDocumentState.id)],
  );
  const byId = new Map(masters.map((m) => [m.id, m.doc]));
  for (const { row, fields } of suspects) {
    const master = byId.get(row.newDocumentState.id);
    const field = fields.find((f) => !master || !sameJson(row.newDocumentState[f], master[f]));
    if (field) {
      throw new HttpError(
        400,
        'server_owned_field',
        `${field} is set by the server and cannot be changed (document ${row.newDocumentState.id})`,
        {
          field,
          id: row.newDocumentState.id,
        },
      );
    }
  }
}

type MasterCheck = {
  id: string;
  doc: Doc;
  version: number;
  new_equal: boolean;
  assumed_equal: boolean;
  changed: string[];
};

/**
 * Runs `statement` for the whole batch; if Postgres refuses it, runs it again for each row in its own
 * savepoint, so a rule or a bad value refuses that row only (it comes back flagged with
 * `sync_rejection`) and the rest of the batch is written. Why the batch statement failed is logged.
 */
async function eachOrAll(
  tx: Tx,
  collection: ServerCollection,
  rows: PushRow[],
  what: 'read' | 'insert',
  statement: (rows: PushRow[]) => Promise<MasterCheck[] | void>,
  log: FastifyBaseLogger | undefined,
): Promise<{ masters: Map<string, MasterCheck>; refused: Doc[] }> {
  const masters = new Map<string, MasterCheck>();
  const refused: Doc[] = [];
  if (rows.length === 0) return { masters, refused };
  await tx.query('savepoint push_batch');
  try {
    for (const m of (await statement(rows)) ?? []) masters.set(m.id, m);
    await tx.query('release savepoint push_batch');
    return { masters, refused };
  } catch (err) {
    await tx.query('rollback to savepoint push_batch');
    await tx.query('release savepoint push_batch');
    if (rows.length === 1) {
      refused.push(refusal(err, collection, rows[0]!, undefined));
      return { masters, refused };
    }
    const e = err as DatabaseError;
    log?.info(
      { collection: collection.name, rows: rows.length, pgCode: e.code, constraint: e.constraint, reason: e.message },
      `push: the batch ${what} failed, retrying row by row to refuse only the rows at fault`,
    );
  }
  for (const row of rows) {
    const conflict = await inSavepoint(tx, collection, row, undefined, async () => {
      for (const m of (await statement([row])) ?? []) masters.set(m.id, m);
      return undefined;
    });
    if (conflict) refused.push(conflict);
  }
  return { masters, refused };
}

/** Runs one row's work in a savepoint; a business-rule refusal rolls it back and flags the row. */
async function inSavepoint(
  tx: Tx,
  collection: ServerCollection,
  row: PushRow,
  master: Doc | undefined,
  work: () => Promise<Doc | undefined>,
): Promise<Doc | undefined> {
  await tx.query('savepoint push_row');
  try {
    const conflict = await work();
    await tx.query('release savepoint push_row');
    return conflict;
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const flagged = refusal(err, collection, row, master);
    await tx.query('rollback to savepoint push_row');
    await tx.query('release savepoint push_row');
    return flagged;
  }
}

/** The flagged conflict for a row Postgres refused, or the error again when it is not a row's fault. */
function refusal(err: unknown, collection: ServerCollection, row: PushRow, master: Doc | undefined): Doc {
  if (err instanceof HttpError) throw err;
  const rejection = asRejection(err as DatabaseError, collection);
  if (!rejection) {
    if ((err as DatabaseError).code === '42501') throw outOfScope(row.newDocumentState.id);
    throw err;
  }
  // A refused insert has no master: the client's own document comes back, flagged.
  return { ...(master ?? row.newDocumentState), sync_rejection: rejection };
}

/** Reads the masters of `rows` (those that exist and the user may see), compared in SQL column by column. */
async function readMasters(tx: Tx, collection: ServerCollection, rows: PushRow[]): Promise<MasterCheck[]> {
  const rel = collection.relation;
  const cols = collection.writable;
  // Compared in SQL, so equal values written differently (timestamps, numerics) count as equal.
  const same = (alias: string) =>
    cols.map((c) => `${alias}.${quoteIdent(c)} is not distinct from t.${quoteIdent(c)}`).join(' and ');
  const changed = cols
    .map((c) => `case when n.${quoteIdent(c)} is distinct from t.${quoteIdent(c)} then '${c}' end`)
    .join(', ');
  const result = await tx.query<MasterCheck>({
    // Named: parsed and planned once per connection.
    name: `push-read-${collection.name}`,
    text: `select x.id, ${collection.documentSql} as doc, t.version,
                  (${same('n')}) as new_equal,
                  coalesce((${same('a')}), false) as assumed_equal,
                  array_remove(array[${changed}], null) as changed
             from unnest($1::uuid[], $2::jsonb[], $3::jsonb[]) as x(id, new_json, assumed_json)
             join ${rel} t on t.id = x.id
             cross join lateral jsonb_populate_record(null::${rel}, x.new_json) n
             left join lateral jsonb_populate_record(null::${rel}, x.assumed_json) a on x.assumed_json is not null`,
    values: [
      rows.map((r) => r.newDocumentState.id),
      rows.map((r) => writableJson(collection, r.newDocumentState)),
      rows.map((r) => (r.assumedMasterState ? writableJson(collection, r.assumedMasterState) : null)),
    ],
  });
  return result.rows;
}

/** Inserts new rows in one statement. */
async function insertRows(tx: Tx, collection: ServerCollection, rows: PushRow[]): Promise<void> {
  const cols = collection.writable.filter((c) => c !== 'deleted');
  await tx.query({
    name: `push-insert-${collection.name}`,
    text: `insert into ${collection.relation} (id, ${cols.map(quoteIdent).join(', ')})
           select x.id, ${cols.map((c) => `n.${quoteIdent(c)}`).join(', ')}
             from unnest($1::uuid[], $2::jsonb[]) with ordinality as x(id, new_json, ord)
             cross join lateral jsonb_populate_record(null::${collection.relation}, x.new_json) n
            order by x.ord`,
    values: [rows.map((r) => r.newDocumentState.id), rows.map((r) => writableJson(collection, r.newDocumentState))],
  });
}

type Update = { row: PushRow; master: MasterCheck };

/**
 * Writes the changed rows: one statement per set of changed columns (a batch of edits to one field is
 * one statement), so a trigger `after update of status` fires for exactly the rows whose status the
 * client changed, as it did row by row. If Postgres refuses the statement (a rule refusing one row),
 * the group is written again row by row, each in its own savepoint, so only the rows at fault are
 * refused. Returns the conflicts: rows someone else wrote since they were read, and refused rows.
 */
async function updateAll(
  tx: Tx,
  collection: ServerCollection,
  updates: Update[],
  log: FastifyBaseLogger | undefined,
): Promise<Doc[]> {
  const groups = new Map<string, Update[]>();
  for (const update of updates) {
    const key = [...update.master.changed].sort().join(',');
    const group = groups.get(key);
    if (group) group.push(update);
    else groups.set(key, [update]);
  }
  const conflicts: Doc[] = [];
  for (const [key, group] of groups) {
    if (group.length > 1) {
      await tx.query('savepoint push_batch');
      try {
        conflicts.push(...(await updateRows(tx, collection, key.split(','), group)));
        await tx.query('release savepoint push_batch');
        continue;
      } catch (err) {
        if (err instanceof HttpError) throw err;
        await tx.query('rollback to savepoint push_batch');
        await tx.query('release savepoint push_batch');
        const e = err as DatabaseError;
        log?.info(
          {
            collection: collection.name,
            rows: group.length,
            pgCode: e.code,
            constraint: e.constraint,
            reason: e.message,
          },
          'push: the batch update failed, retrying row by row to refuse only the rows at fault',
        );
      }
    }
    for (const { row, master } of group) {
      const conflict = await inSavepoint(tx, collection, row, master.doc, () => updateRow(tx, collection, row, master));
      if (conflict) conflicts.push(conflict);
    }
  }
  return conflicts;
}

/** Statement names of the update per collection and set of columns: parsed and planned once per connection. */
const updateStatements = new Map<string, string>();

/**
 * Writes `columns` of every row in one statement, each row only if nobody wrote it since it was read
 * (its version). A row not written is a conflict when its version moved, and out of scope (403 for the
 * batch) when RLS lets the user see it but not change it.
 */
async function updateRows(tx: Tx, collection: ServerCollection, columns: string[], group: Update[]): Promise<Doc[]> {
  const rel = collection.relation;
  const statementKey = `${collection.name}:${columns.join(',')}`;
  let name = updateStatements.get(statementKey);
  if (!name) updateStatements.set(statementKey, (name = `push-update-${updateStatements.size + 1}`));
  const written = await tx.query<{ id: string }>({
    name,
    text: `update ${rel} t set ${columns.map((c) => `${quoteIdent(c)} = n.${quoteIdent(c)}`).join(', ')}
             from unnest($1::uuid[], $2::jsonb[], $3::bigint[]) as x(id, new_json, version)
             cross join lateral jsonb_populate_record(null::${rel}, x.new_json) n
            where t.id = x.id and t.version = x.version
        returning t.id`,
    values: [
      group.map((u) => u.row.newDocumentState.id),
      group.map((u) => writableJson(collection, u.row.newDocumentState)),
      group.map((u) => u.master.version),
    ],
  });
  if (written.rows.length === group.length) return [];
  const done = new Set(written.rows.map((r) => r.id));
  const missed = group.filter((u) => !done.has(u.row.newDocumentState.id));
  const again = await tx.query<{ id: string; doc: Doc; version: number }>(
    `select t.id, ${collection.documentSql} as doc, t.version from ${rel} t where t.id = any($1::uuid[])`,
    [missed.map((u) => u.row.newDocumentState.id)],
  );
  const current = new Map(again.rows.map((r) => [r.id, r]));
  return missed.map(({ row, master }) => {
    const now = current.get(row.newDocumentState.id);
    if (now && now.version !== master.version) return now.doc;
    throw outOfScope(row.newDocumentState.id);
  });
}

/** Writes the changed columns of one row, if nobody wrote it since it was read. */
async function updateRow(
  tx: Tx,
  collection: ServerCollection,
  row: PushRow,
  master: MasterCheck,
): Promise<Doc | undefined> {
  const rel = collection.relation;
  const doc = row.newDocumentState;
  const updated = await tx.query(
    `update ${rel} t set ${master.changed.map((c) => `${quoteIdent(c)} = n.${quoteIdent(c)}`).join(', ')}
       from jsonb_populate_record(null::${rel}, $2::jsonb) n
      where t.id = $1 and t.version = $3`,
    [doc.id, writableJson(collection, doc), master.version],
  );
  if (updated.rowCount !== 0) return undefined;
  // Either someone else wrote the row since it was read (a conflict), or RLS lets the user see the row
  // but not change it (out of scope).
  const again = await tx.query<{ doc: Doc; version: number }>(
    `select ${collection.documentSql} as doc, t.version from ${rel} t where t.id = $1`,
    [doc.id],
  );
  const current = again.rows[0];
  if (current && current.version !== master.version) return current.doc;
  throw outOfScope(doc.id);
}

/** The writable columns of a document as the JSON `jsonb_populate_record` reads (`_deleted` → `deleted`). */
function writableJson(collection: ServerCollection, doc: Doc): string {
  const out: Record<string, unknown> = {};
  for (const c of collection.writable) out[c] = c === 'deleted' ? doc._deleted : (doc[c] ?? null);
  return JSON.stringify(out);
}

const outOfScope = (id: string) =>
  new HttpError(403, 'out_of_scope', `You cannot write document ${id} of this collection.`, { id });

/** Business-rule refusals of one row: the rules' PTnnn / P0001 errors, constraint and value errors. */
function asRejection(err: DatabaseError, collection: ServerCollection): SyncRejection | undefined {
  const code = err.code ?? '';
  const refusal = ruleRefusal(err);
  if (refusal) return { code: refusal.code, message: refusal.message };
  if (code === 'P0001') return { code: err.message, message: err.detail ?? err.message };
  if (code === '23505' && err.constraint === `${collection.spec.table}_pkey`) {
    // The id is taken by a row RLS hides from this user (a visible one was read as the master). Refused
    // like any row naming something the user may not see (`deal_not_found`…): per row, with the
    // client's own document, nothing of the hidden row; the rest of the batch is written.
    return {
      code: 'not_found',
      message: 'This was not found: it may have been deleted, or it is not shared with you.',
    };
  }
  if (code === '23505') return { code: 'duplicate', message: 'This already exists.' };
  if (code.startsWith('23'))
    return { code: 'invalid_value', message: 'This change breaks a rule of the data and was not saved.' };
  if (code.startsWith('22'))
    return { code: 'invalid_value', message: 'A value is out of range or badly formatted and was not saved.' };
  return undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  return stableJson(a ?? null) === stableJson(b ?? null);
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k] ?? null)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
