import type { DatabaseError } from 'pg';

/**
 * A refusal a database rule raised (`pacta_private.reject`): SQLSTATE `PTnnn` carries the HTTP status
 * nnn, the message the refusal's code (`kept_deals_full`) and the detail the sentence the user reads.
 */
export type RuleRefusal = { status: number; code: string; message: string };

/** The rule refusal `err` is, or undefined for any other error (which callers rethrow). */
export function ruleRefusal(err: unknown): RuleRefusal | undefined {
  const e = err as Partial<DatabaseError> | undefined;
  const state = e?.code ?? '';
  if (!/^PT\d{3}$/.test(state) || !e?.message) return undefined;
  return { status: Number(state.slice(2)), code: e.message, message: e.detail ?? e.message };
}
