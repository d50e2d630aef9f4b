import { z } from 'zod';
import type { RxJsonSchema } from 'rxdb';
import {
  collectionSpecs,
  NEWEST_FIRST,
  OPEN_UNTIL,
  type CollectionName,
  type CollectionSpec,
} from '../domain/collections/index.ts';

type JsonSchema = Record<string, unknown>;

/** Keywords RxDB's schema does not need (validation stays with zod and the server). */
const DROPPED_KEYWORDS = new Set(['$schema', 'pattern', 'propertyNames', 'format']);

function clean(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(clean);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED_KEYWORDS.has(key)) continue;
    out[key] =
      key === 'properties' || key === 'items' || key === 'anyOf' || key === 'additionalProperties'
        ? cleanNested(key, value)
        : value;
  }
  return out;
}

function cleanNested(key: string, value: unknown): unknown {
  if (key === 'properties' && value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clean(v)]));
  }
  return clean(value);
}

/**
 * The RxDB schema of a collection, derived from its zod document schema so both sides share one
 * definition: `id` is the primary key; indexed fields are required and length-bounded, as RxDB's
 * Dexie storage demands; a collection sorted newest first gets its derived `newest_first` key and
 * requires `created_at`; defaults stay so RxDB fills them on insert. The version is the registry's
 * `schemaVersion` (`spec` is only passed by tests that play an older or newer shape).
 */
export function rxSchemaFor(
  name: CollectionName,
  spec: CollectionSpec = collectionSpecs[name],
): RxJsonSchema<Record<string, unknown>> {
  const json = z.toJSONSchema(spec.schema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, JsonSchema>;
    required?: string[];
  };
  const properties: Record<string, JsonSchema> = {};
  for (const [field, schema] of Object.entries(json.properties)) properties[field] = clean(schema) as JsonSchema;
  properties.id = { type: 'string', maxLength: 36 };

  const indexFields = new Set<string>(spec.indexes.flat());
  const sortedNewestFirst = indexFields.has(NEWEST_FIRST);
  // The derived sort key (src/db/newest-first.ts): a whole number of microseconds, at most 0.
  if (sortedNewestFirst)
    properties[NEWEST_FIRST] = { type: 'number', minimum: -Number.MAX_SAFE_INTEGER, maximum: 0, multipleOf: 1 };
  // The derived last day a deal is offered (OPEN_UNTIL): a day as YYYY-MM-DD.
  if (indexFields.has(OPEN_UNTIL)) properties[OPEN_UNTIL] = { type: 'string', maxLength: 10 };
  for (const field of indexFields) {
    const prop = properties[field];
    if (!prop) throw new Error(`Index field ${field} is not in the ${name} schema`);
    // uuids are 36 characters; other indexed strings are short enums.
    if (prop.type === 'string' && prop.maxLength === undefined) prop.maxLength = field.endsWith('_id') ? 36 : 40;
  }
  const required = [
    ...new Set(['id', ...(json.required ?? []), ...indexFields, ...(sortedNewestFirst ? ['created_at'] : [])]),
  ];
  return {
    title: name,
    version: spec.schemaVersion,
    primaryKey: 'id',
    type: 'object',
    properties,
    required,
    indexes: spec.indexes.map((i) => (typeof i === 'string' ? i : [...i])),
  } as RxJsonSchema<Record<string, unknown>>;
}
