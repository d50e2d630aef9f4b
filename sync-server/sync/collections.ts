import {
  clientWritableFields,
  collectionSpecs,
  documentFields,
  serverOwnedFields,
  type CollectionName,
  type CollectionSpec,
} from '../../src/domain/collections/index.ts';

/** What the sync server needs to know about one collection, with its SQL fragments prepared once. */
export type ServerCollection = {
  name: CollectionName;
  spec: CollectionSpec;
  /** Qualified, quoted relation name. */
  relation: string;
  /** Columns the client may write (plus `deleted`, the soft-delete flag behind `_deleted`). */
  writable: string[];
  /** Fields a push must leave as they were in its assumed master. */
  serverOwned: string[];
  /**
   * SQL expression (over alias `t`) building the document exactly as clients hold it: the schema's
   * fields, `_deleted`, and never `change_xid` or anything the schema does not name.
   */
  documentSql: string;
};

const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unexpected identifier ${name}`);
  return `"${name}"`;
};

function documentExpression(fields: string[]): string {
  const pairs = [...fields.map((f) => `'${f}', t.${ident(f)}`), `'_deleted', t."deleted"`];
  // jsonb_build_object takes at most 100 arguments: build in chunks and concatenate.
  const chunks: string[] = [];
  for (let i = 0; i < pairs.length; i += 40) chunks.push(`jsonb_build_object(${pairs.slice(i, i + 40).join(', ')})`);
  return chunks.join(' || ');
}

function build(name: CollectionName): ServerCollection {
  const spec: CollectionSpec = collectionSpecs[name];
  return {
    name,
    spec,
    relation: `public.${ident(spec.table)}`,
    writable: [...clientWritableFields(name), 'deleted'],
    serverOwned: serverOwnedFields(name),
    documentSql: documentExpression(documentFields(name)),
  };
}

const byName = new Map<string, ServerCollection>(
  (Object.keys(collectionSpecs) as CollectionName[]).map((name) => [name, build(name)]),
);

export function serverCollection(name: string): ServerCollection | undefined {
  return byName.get(name);
}

export const quoteIdent = ident;
