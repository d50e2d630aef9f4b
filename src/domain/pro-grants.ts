/**
 * Pro through a feature grant (the Pro year 10 qualified referrals bring, or a staff gesture): the user
 * is Pro while a `pro_deals` grant runs, exactly as the server's public.is_pro_user reads it. Grants
 * reach the device as growth records of kind 'pro_feature' (`data` = { feature, expires_at }).
 */
export const PRO_GRANT_FEATURE = 'pro_deals';
/** A grant without an end date. */
export const PERMANENT_GRANT = 'permanent';

type GrantRecord = { kind: string; user_id: string; data: Readonly<Record<string, unknown>>; _deleted?: boolean };

/** When the user's Pro grant ends: an ISO time, PERMANENT_GRANT, or null when there is none. */
export function proGrantUntil(userId: string, records: readonly GrantRecord[]): string | null {
  let until: string | null = null;
  for (const r of records) {
    if (r.kind !== 'pro_feature' || r.user_id !== userId || r._deleted || r.data.feature !== PRO_GRANT_FEATURE) continue;
    const expires = r.data.expires_at;
    if (expires === null || expires === undefined) return PERMANENT_GRANT;
    if (typeof expires === 'string' && (until === null || Date.parse(expires) > Date.parse(until))) until = expires;
  }
  return until;
}

export function isProGrantActive(until: string | null | undefined, now: number): boolean {
  if (!until) return false;
  return until === PERMANENT_GRANT || Date.parse(until) > now;
}
