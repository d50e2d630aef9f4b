import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseSchemaFile, readSchemaFiles, renderSchemaFile } from '../../scripts/sql-definitions.ts';
import { createTestDatabase } from '../support/test-database.ts';

const schemasDir = path.resolve(import.meta.dirname, '../../supabase/schemas');

let db: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

test('supabase/schemas holds the current definition of every function, trigger and policy the migrations make', async () => {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const migrated = await readSchemaFiles(client).finally(() => client.end());

  const written = new Map<string, string>();
  for (const file of (await fs.readdir(schemasDir)).filter((f) => f.endsWith('.sql')).sort()) {
    written.set(file, await fs.readFile(path.join(schemasDir, file), 'utf8'));
  }

  const differences: string[] = [];
  for (const file of new Set([...migrated.keys(), ...written.keys()])) {
    const objects = migrated.get(file);
    const expected = objects ? renderSchemaFile(file, objects) : undefined;
    const actual = written.get(file);
    if (expected === actual) continue;
    if (actual === undefined) {
      differences.push(`supabase/schemas/${file} is missing`);
      continue;
    }
    if (expected === undefined) {
      differences.push(`supabase/schemas/${file} holds nothing the migrations make`);
      continue;
    }
    const want = parseSchemaFile(expected);
    const have = parseSchemaFile(actual);
    for (const [name, sql] of want) {
      if (!have.has(name)) differences.push(`${file}: ${name} is missing from the file`);
      else if (have.get(name) !== sql) differences.push(`${file}: ${name} differs from what the migrations make`);
    }
    for (const name of have.keys()) {
      if (!want.has(name)) differences.push(`${file}: ${name} is in the file but no migration makes it`);
    }
    if (differences.length === 0) differences.push(`supabase/schemas/${file} differs in its layout`);
  }

  const advice =
    'The SQL rules in supabase/schemas/ and the migrations disagree. Write the migration that makes the change, ' +
    'then run npm run schemas:dump and check that the files changed as you meant:\n  ';
  expect(differences, advice + differences.join('\n  ')).toEqual([]);
});
