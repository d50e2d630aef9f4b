import { useEffect, useState } from 'react';
import { getDealAccess } from '../../../domain/contracts/deal-access.ts';
import { sessionRetryFetch } from '../../../lib/session/session.ts';
import { syncServerUrl } from '../../../lib/config.ts';
import { dealDocument, type DealDocument } from '../../../domain/collections/index.ts';
import { errorBody } from '../../../domain/contracts/errors.ts';

/**
 * What the server says about a deal this device does not hold. Sync never sends a Pro-only deal to a
 * non-Pro creator, so a shared link to one would otherwise read "not found"; the spec wants
 * 'Pro Exclusive Deal' with Upgrade to Pro instead.
 * - `visible`: the user may read it, and the server sent it (a deal found by an online search, or
 *   one sync has not brought yet): the page shows the server's copy.
 * - `unknown`: offline, or the server could not answer: nothing more can be said right now.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type DealAccess = 'checking' | 'visible' | 'pro_only' | 'not_found' | 'unknown';

export type DealAccessAnswer = { access: Exclude<DealAccess, 'checking'>; deal: DealDocument | null };

export async function fetchDealAccess(id: string): Promise<DealAccessAnswer> {
  const only = (access: DealAccessAnswer['access']): DealAccessAnswer => ({ access, deal: null });
  if (typeof navigator !== 'undefined' && !navigator.onLine) return only('unknown');
  // A link with a mangled id names no deal: no need to ask (the server would answer 400).
  if (!UUID.test(id)) return only('not_found');
  try {
    const res = await sessionRetryFetch(`${syncServerUrl()}/api/deals/${encodeURIComponent(id)}/access`, {
      cache: 'no-store',
    });
    if (res.status === 404 || res.status === 400) return only('not_found');
    if (!res.ok) return only('unknown');
    const body = getDealAccess.response[200].safeParse(await res.json());
    if (!body.success) return only('unknown');
    if (body.data.access !== 'visible') return only(body.data.access);
    const deal = dealDocument.safeParse(body.data.deal);
    return { access: 'visible', deal: deal.success ? deal.data : null };
  } catch {
    return only('unknown');
  }
}

/**
 * Keeps on this device a deal the user opened from the server (a search result, a link): the server
 * adds it to the device's working set and tells the device to pull, so the deal is then local and
 * opens offline. Best effort: offline or failed, the page still shows the server's copy. A refusal
 * the user can act on (their devices keep as many opened deals as they may) comes back as its message.
 */
export async function keepDealOnDevice(id: string): Promise<{ refusal: string | null }> {
  try {
    const res = await sessionRetryFetch(`${syncServerUrl()}/api/deals/${encodeURIComponent(id)}/keep`, {
      method: 'POST',
    });
    const json: unknown = await res.json().catch(() => ({}));
    if (res.ok) return { refusal: null };
    const body = errorBody.safeParse(json);
    return { refusal: body.success && body.data.code === 'kept_deals_full' ? body.data.message : null };
  } catch {
    return { refusal: null };
  }
}

/**
 * Asks once per deal id while `enabled` (the deal is not in the local database); a deal the user may
 * read is kept on the device (`keepDealOnDevice`), and `keepRefusal` says why it could not be.
 */
export function useDealAccess(
  id: string,
  enabled: boolean,
): { access: DealAccess; deal: DealDocument | null; keepRefusal: string | null } {
  const [answer, setAnswer] = useState<{ id: string } & DealAccessAnswer>();
  const [refused, setRefused] = useState<{ id: string; message: string }>();
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    void fetchDealAccess(id).then((got) => {
      if (got.access === 'visible') {
        void keepDealOnDevice(id).then(({ refusal }) => {
          if (current && refusal) setRefused({ id, message: refusal });
        });
      }
      if (current) setAnswer({ id, ...got });
    });
    return () => {
      current = false;
    };
  }, [id, enabled]);
  const keepRefusal = refused?.id === id ? refused.message : null;
  return answer?.id === id ? { ...answer, keepRefusal } : { access: 'checking', deal: null, keepRefusal };
}
