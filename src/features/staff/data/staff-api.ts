import { errorBody } from '../../../domain/contracts/errors.ts';
import { getStaffOverview, type StaffOverview } from '../../../domain/contracts/staff.ts';
import { syncServerUrl } from '../../../lib/config.ts';
import { sessionRetryFetch } from '../../../lib/session/session.ts';

export type { StaffOverview };

/** What waits on staff, from the server (online only: other users' tickets and deals are not on this device). */
export async function fetchStaffOverview(): Promise<StaffOverview> {
  if (!navigator.onLine) throw new Error('You are offline: this needs a connection.');
  let response: Response;
  try {
    response = await sessionRetryFetch(`${syncServerUrl()}/api/admin/overview`, { cache: 'no-store' });
  } catch {
    throw new Error('Pacta could not be reached. Check your connection and try again.');
  }
  const json: unknown = await response.json().catch(() => ({}));
  if (!response.ok) {
    const refusal = errorBody.safeParse(json);
    throw new Error(refusal.success ? refusal.data.message : 'Something went wrong. Please try again.');
  }
  return getStaffOverview.response[200].parse(json);
}
