import type pg from 'pg';

/**
 * The current definition of every SQL rule (function, trigger, row-level security) in Pacta's
 * schemas, read back from a database the migrations built, grouped into one file per topic as
 * `supabase/schemas/*.sql`. Postgres prints each object (`pg_get_functiondef`, `pg_get_triggerdef`,
 * `pg_policies`), so the text depends only on what the migrations produced, never on how they were
 * written, and objects are sorted, so two runs print the same files.
 */

/**
 * The schemas whose rules are ours: `public`, the private helpers and the replication's own
 * (hosted Supabase owns auth, storage and the rest; a trigger of ours on `auth.users` counts).
 */
const OUR_SCHEMAS = ['public', 'pacta_private', 'sync'];

/**
 * Topic of a table: the file its policies, its triggers and the functions those triggers run go to.
 * A table missing here goes to `other.sql`; add it to the topic it belongs to.
 */
const TABLE_TOPICS: Record<string, string> = {
  profiles: 'profiles',
  saved_lists: 'profiles',
  deals: 'deals',
  applications: 'deals',
  deal_events: 'deals',
  kept_deals: 'deals',
  drafts: 'briefs-and-reviews',
  reviews: 'briefs-and-reviews',
  campaign_invitations: 'briefs-and-reviews',
  conversations: 'inbox',
  conversation_members: 'inbox',
  messages: 'inbox',
  notifications: 'inbox',
  push_subscriptions: 'inbox',
  push_outbox: 'inbox',
  deal_emails: 'inbox',
  email_opt_outs: 'inbox',
  email_link_keys: 'inbox',
  terms_acceptances: 'accounts',
  support_tickets: 'support',
  support_messages: 'support',
  xp_logs: 'growth',
  referrals: 'growth',
  referral_badges: 'growth',
  referral_rewards: 'growth',
  pro_features: 'pro',
  user_pro_features: 'pro',
  billing_accounts: 'money',
  deal_escrows: 'money',
  deal_escrow_charges: 'money',
  ledger_entries: 'money',
  referral_payout_runs: 'money',
  stripe_events: 'money',
  contact_messages: 'support',
  users: 'accounts',
  objects: 'storage',
};

/**
 * Topic of a function no trigger runs (or that several topics' triggers run), by its name.
 * The first pattern that matches wins; anything else goes to `shared.sql`.
 */
const FUNCTION_TOPICS: [RegExp, string][] = [
  [/(^account_|^delete_account$|^has_blocked$)/, 'accounts'],
  [/^(sync_|make_replicated|record_early_deletions|early_deletions)/, 'sync'],
  [/(stripe|ledger|escrow|payout|billing|subscription|checkout|payment|commission|fee|percent_of_cents)/, 'money'],
  [/(xp|level|referral|badge|leaderboard|growth)/, 'growth'],
  [/(^pro_|pro_feature|is_pro)/, 'pro'],
  [/(support|ticket|open_question)/, 'support'],
  [/(storage|_files$)/, 'storage'],
  [/(message|conversation|notif|push)/, 'inbox'],
  [/(review|draft|brief|invitation)/, 'briefs-and-reviews'],
  [/(deal|application|apply|terms|live_link|web_link)/, 'deals'],
  [/(profile|saved_list|new_user|username)/, 'profiles'],
];

type SqlObject = { kind: 'function' | 'trigger' | 'policy' | 'row level security'; name: string; sql: string };

/** One topic file's objects, each a block under a `-- kind name` line, in a fixed order. */
export type SchemaFiles = Map<string, SqlObject[]>;

export async function readSchemaFiles(client: pg.Client): Promise<SchemaFiles> {
  const functions = await client.query<{ schema: string; name: string; args: string; def: string; acl: string | null }>(
    `select n.nspname as schema, p.proname as name, pg_get_function_identity_arguments(p.oid) as args,
            pg_get_functiondef(p.oid) as def,
            (select string_agg(case when a.grantee = 0 then 'public' else quote_ident(r.rolname) end, ', '
                               order by case when a.grantee = 0 then '' else r.rolname end)
               from aclexplode(p.proacl) a left join pg_roles r on r.oid = a.grantee
              where a.privilege_type = 'EXECUTE' and a.grantee <> p.proowner) as acl
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = any($1) and p.prokind in ('f', 'p')
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
      order by 1, 2, 3`,
    [OUR_SCHEMAS],
  );
  const triggers = await client.query<{ schema: string; tbl: string; name: string; def: string; fn: string }>(
    `select n.nspname as schema, c.relname as tbl, t.tgname as name, pg_get_triggerdef(t.oid, true) as def,
            fn_ns.nspname || '.' || fn.proname as fn
       from pg_trigger t
       join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
       join pg_proc fn on fn.oid = t.tgfoid join pg_namespace fn_ns on fn_ns.oid = fn.pronamespace
      where not t.tgisinternal and (n.nspname = any($1) or fn_ns.nspname = any($1))
      order by 1, 2, 3`,
    [OUR_SCHEMAS],
  );
  const policies = await client.query<{
    schema: string;
    tbl: string;
    name: string;
    permissive: string;
    roles: string[];
    cmd: string;
    qual: string | null;
    with_check: string | null;
  }>(
    `select schemaname as schema, tablename as tbl, policyname as name, permissive, roles::text[] as roles, cmd,
            qual, with_check
       from pg_policies
      -- Our policies on Storage's objects table (the table itself is hosted Supabase's).
      where schemaname = any($1) or (schemaname = 'storage' and tablename = 'objects')
      order by 1, 2, 3`,
    [OUR_SCHEMAS],
  );
  const secured = await client.query<{ schema: string; tbl: string; forced: boolean }>(
    `select n.nspname as schema, c.relname as tbl, c.relforcerowsecurity as forced
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any($1) and c.relrowsecurity order by 1, 2`,
    [OUR_SCHEMAS],
  );

  const files: SchemaFiles = new Map();
  const add = (topic: string, object: SqlObject) => {
    const list = files.get(`${topic}.sql`) ?? [];
    list.push(object);
    files.set(`${topic}.sql`, list);
  };
  const tableTopic = (schema: string, table: string) => (schema === 'sync' ? 'sync' : (TABLE_TOPICS[table] ?? 'other'));

  // A function goes where the triggers that run it are, when they are all of one topic.
  const triggerTopics = new Map<string, Set<string>>();
  for (const t of triggers.rows) {
    const topics = triggerTopics.get(t.fn) ?? new Set<string>();
    topics.add(tableTopic(t.schema, t.tbl));
    triggerTopics.set(t.fn, topics);
  }
  for (const f of functions.rows) {
    const name = `${f.schema}.${f.name}(${f.args})`;
    const byTrigger = triggerTopics.get(`${f.schema}.${f.name}`);
    const topic =
      f.schema === 'sync'
        ? 'sync'
        : byTrigger?.size === 1
          ? [...byTrigger][0]!
          : (FUNCTION_TOPICS.find(([pattern]) => pattern.test(f.name))?.[1] ?? 'shared');
    const grants =
      f.acl === null
        ? ''
        : `\nrevoke all on function ${name} from public;` +
          (f.acl ? `\ngrant execute on function ${name} to ${f.acl};` : '');
    add(topic, { kind: 'function', name, sql: `${f.def.trim()};${grants}` });
  }
  for (const t of triggers.rows) {
    add(tableTopic(t.schema, t.tbl), { kind: 'trigger', name: `${t.name} on ${t.schema}.${t.tbl}`, sql: `${t.def};` });
  }
  for (const s of secured.rows) {
    const table = `${s.schema}.${s.tbl}`;
    const sql =
      `alter table ${table} enable row level security;` +
      (s.forced ? `\nalter table ${table} force row level security;` : '');
    add(tableTopic(s.schema, s.tbl), { kind: 'row level security', name: table, sql });
  }
  for (const p of policies.rows) {
    const table = `${p.schema}.${p.tbl}`;
    const sql = [
      `create policy ${quoteIdent(p.name)} on ${table}`,
      `  as ${p.permissive.toLowerCase()} for ${p.cmd.toLowerCase()}`,
      `  to ${p.roles.join(', ')}`,
      p.qual === null ? undefined : `  using (${p.qual})`,
      p.with_check === null ? undefined : `  with check (${p.with_check})`,
    ]
      .filter((line) => line !== undefined)
      .join('\n');
    add(tableTopic(p.schema, p.tbl), { kind: 'policy', name: `${p.name} on ${table}`, sql: `${sql};` });
  }
  const kindOrder = ['row level security', 'policy', 'function', 'trigger'];
  for (const list of files.values()) {
    list.sort((a, b) => kindOrder.indexOf(a.kind) - kindOrder.indexOf(b.kind) || compare(a.name, b.name));
  }
  return new Map([...files].sort(([a], [b]) => compare(a, b)));
}

/** One topic file's text: a header, then each object under its `-- kind: name` line. */
export function renderSchemaFile(file: string, objects: SqlObject[]): string {
  const header = [
    `-- ${file}: the current definition of every rule of this topic, read from a database migrated with`,
    '-- every migration in supabase/migrations. Generated by `npm run schemas:dump`: change a rule by',
    '-- editing it here AND writing the migration that makes it so; tests/schemas/schemas-match.pg.test.ts',
    '-- fails while the two disagree.',
  ].join('\n');
  return `${header}\n${objects.map((o) => `\n${blockHeader(o)}\n${o.sql}\n`).join('')}`;
}

/** The objects of a rendered file by their `-- kind: name` line, for comparing two versions. */
export function parseSchemaFile(text: string): Map<string, string> {
  const objects = new Map<string, string>();
  let current: string | undefined;
  for (const line of text.split('\n')) {
    if (/^-- (function|trigger|policy|row level security): /.test(line)) {
      current = line.slice(3);
      objects.set(current, '');
    } else if (current !== undefined) {
      objects.set(current, `${objects.get(current)}${line}\n`);
    }
  }
  return new Map([...objects].map(([name, sql]) => [name, sql.trim()]));
}

function blockHeader(o: SqlObject): string {
  return `-- ${o.kind}: ${o.name}`;
}

function quoteIdent(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

/** Code-point order, the same on every machine (localeCompare depends on the locale). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
