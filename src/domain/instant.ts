/** A point in time as the domain rules accept it: epoch milliseconds, an ISO string or a Date. */
export type Instant = number | string | Date;

export function toEpochMs(instant: Instant): number {
  const ms =
    typeof instant === 'number' ? instant : typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  if (!Number.isFinite(ms)) throw new RangeError(`Not a valid instant: ${String(instant)}`);
  return ms;
}
