/**
 * Where to go after signing in: the page a signed-out visitor was sent here from (RequireAuth passes
 * it as `from`), if it is a path of this app; the dashboard otherwise.
 */
export function afterSignIn(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/auth/'))
    return '/dashboard';
  return from;
}
