/**
 * Named moments of the app's start, as User Timing marks (`performance.mark`), each recorded once per
 * page load: `npm run bench:web` reads them to say where a warm start's time goes. A mark costs a few
 * microseconds and nothing reads them in the app itself.
 */
export type BootMark =
  | 'session-restored'
  /** The user's database was asked for (its code loaded, the open begins). */
  | 'database-opening'
  | 'database-open'
  | 'replication-started'
  /** The deals replication received its first page with documents (before RxDB writes it). */
  | 'deals-page-received'
  | 'page-code-loaded'
  | 'first-local-result';

const marked = new Set<BootMark>();

export function markBoot(name: BootMark): void {
  if (marked.has(name) || typeof performance === 'undefined' || !performance.mark) return;
  marked.add(name);
  performance.mark(`pacta:${name}`);
}
