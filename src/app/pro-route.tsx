import { lazy } from 'react';
import { importOrReload } from '../lib/code-reload.ts';
import { useAuth } from '../lib/session/auth-context.ts';

const ProPage = lazy(async () => ({
  default: (await importOrReload(() => import('../features/static/pro/pro-page.tsx'))).ProPage,
}));

/** /upgrade and /pro: a brand sees Brand Pro, anyone else Creator Pro. */
export function ProRoute() {
  const { role } = useAuth();
  return <ProPage audience={role === 'brand' ? 'brand' : 'creator'} />;
}
