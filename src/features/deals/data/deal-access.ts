import { useEffect, useState } from 'react';
import { getDealAccess } from '../../../domain/contracts/deal-access.ts';
import { sessionRetryFetch } from '../../../lib/session/session.ts';
import { syncServerUrl } from '../../../lib/config.ts';

/**
 * What the server says about a deal this device does not hold. Sync never sends a Pro-only deal to a
 * non-Pro creator, so a shared link to one would otherwise read "not found"; the spec wants
 * 'Pro Exclusive Deal' with Upgrade to Pro instead.
 * - `visible`: the user may read it; it is on its way through sync.
 * - `unknown`: offline, or the server could not answer: nothing more can be said right now.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type DealAccess = 'checking' | 'visible' | 'pro_only' | 'not_found' | 'unknown';

export async function fetchDealAccess(id: string): Promise<Exclude<DealAccess, 'checking'>> {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return 'unknown';
  // A link with a mangled id names no deal: no need to ask (the server would answer 400).
  if (!UUID.test(id)) return 'not_found';
  try {
    const res = await sessionRetryFetch(`${syncServerUrl()}/api/deals/${encodeURIComponent(id)}/access`, {
      cache: 'no-store',
    });
    if (res.status === 404 || res.status === 400) return 'not_found';
    if (!res.ok) return 'unknown';
    const body = getDealAccess.response[200].safeParse(await res.json());
    return body.success ? body.data.access : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Asks once per deal id while `enabled` (the deal is not in the local database). */
export function useDealAccess(id: string, enabled: boolean): DealAccess {
  const [answer, setAnswer] = useState<{ id: string; access: DealAccess } | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    void fetchDealAccess(id).then((access) => current && setAnswer({ id, access }));
    return () => {
      current = false;
    };
  }, [id, enabled]);
  return answer?.id === id ? answer.access : 'checking';
}
