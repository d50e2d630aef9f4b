// What node-postgres says when the connection itself is gone.
const CONNECTION_LOST = new RegExp(
  [
    'Connection terminated',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error',
    'the database system is (starting up|shutting down)',
  ].join('|'),
  'i',
);

/**
 * Whether an error means Postgres is out of reach (restarting, down, the network gone) rather than a
 * problem with the request: such requests get 503 and the pool reconnects once the database is back.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  // Connection exceptions (08…), shutdown or starting up (57P01–57P03), too many connections (53300).
  if (/^08/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH'].includes(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return CONNECTION_LOST.test(message);
}
