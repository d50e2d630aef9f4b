import type { MigrationStrategies } from 'rxdb';
import { collectionSpecs, type CollectionName, type CollectionSpec } from '../domain/collections/index.ts';

/**
 * A stored document brought to the collection's current schema: every field it lacks that the zod
 * schema gives a default gets that default; everything it has is kept (a renamed or retyped field
 * needs its own strategy here). The server sends the real values with the next pull.
 */
export function fillSchemaDefaults(
  spec: Pick<CollectionSpec, 'schema'>,
  doc: Record<string, unknown>,
): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...doc };
  for (const [field, fieldSchema] of Object.entries(spec.schema.shape)) {
    if (filled[field] !== undefined) continue;
    const parsed = fieldSchema.safeParse(undefined);
    if (parsed.success && parsed.data !== undefined) filled[field] = parsed.data;
  }
  return filled;
}

/**
 * RxDB's migration strategies for a collection at `schemaVersion` N: one per version 1..N (RxDB runs
 * every step from the stored version up), each keeping the documents and filling new fields.
 */
export function migrationStrategiesFor(spec: Pick<CollectionSpec, 'schema' | 'schemaVersion'>): MigrationStrategies {
  const strategies: MigrationStrategies = {};
  for (let version = 1; version <= spec.schemaVersion; version++) {
    strategies[version] = (doc: Record<string, unknown>) => fillSchemaDefaults(spec, doc);
  }
  return strategies;
}

export function migrationStrategiesForCollection(name: CollectionName): MigrationStrategies {
  return migrationStrategiesFor(collectionSpecs[name]);
}
