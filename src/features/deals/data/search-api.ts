import {
  creatorSearchResponse,
  dealSearchResponse,
  searchQueryString,
  type CreatorSearchRequest,
  type DealSearchRequest,
} from '../../../domain/search.ts';
import type { DealDocument, ProfileDocument } from '../../../domain/collections/index.ts';
import { syncServerUrl } from '../../../lib/config.ts';
import { sessionRetryFetch } from '../../../lib/session/session.ts';

/** The server could not search now (offline, refused, or failed); the device's results still show. */
export class OnlineSearchUnavailable extends Error {}

async function get(path: string, query: string, signal: AbortSignal): Promise<unknown> {
  let res: Response;
  try {
    res = await sessionRetryFetch(`${syncServerUrl()}/api/search/${path}?${query}`, { cache: 'no-store', signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new OnlineSearchUnavailable('The server could not be reached.');
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: unknown } | null;
    throw new OnlineSearchUnavailable(typeof body?.message === 'string' ? body.message : 'Online search failed.');
  }
  return res.json();
}

/** GET /api/search/deals: one page of the deals the server finds. */
export async function searchDealsOnline(
  request: Partial<DealSearchRequest>,
  signal: AbortSignal,
): Promise<DealDocument[]> {
  return dealSearchResponse.parse(await get('deals', searchQueryString(request), signal)).deals;
}

/** GET /api/search/creators: one page of the creators the server finds. */
export async function searchCreatorsOnline(
  request: Partial<CreatorSearchRequest>,
  signal: AbortSignal,
): Promise<ProfileDocument[]> {
  return creatorSearchResponse.parse(await get('creators', searchQueryString(request), signal)).creators;
}
