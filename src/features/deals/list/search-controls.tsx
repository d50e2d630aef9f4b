import { useId } from 'react';
import type { OnlineState } from '../data/use-search.ts';

/** The search box: a labelled search field; results follow as one types. */
export function SearchField({
  label,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange(next: string): void;
}) {
  const id = useId();
  return (
    <div className="field search-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="search"
        value={value}
        placeholder={placeholder}
        maxLength={200}
        autoComplete="off"
        enterKeyHint="search"
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

export function SortSelect<S extends string>({
  value,
  options,
  onChange,
}: {
  value: S;
  options: Record<S, string>;
  onChange(next: S): void;
}) {
  const id = useId();
  return (
    <div className="field search-sort">
      <label htmlFor={id}>Sort by</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as S)}>
        {(Object.keys(options) as S[]).map((key) => (
          <option key={key} value={key}>
            {options[key]}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * What the search found, in a live region (announced politely as results change), and where it
 * looked: offline only the device, online the device and the server.
 */
export function SearchSummary({
  found,
  onlineOnly,
  noun,
  deviceCount,
  online,
  onlineMessage,
}: {
  /** Undefined while the first answer is on its way. */
  found: number | undefined;
  onlineOnly: number;
  noun: [one: string, many: string];
  deviceCount: number;
  online: OnlineState;
  onlineMessage: string | null;
}) {
  const count = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? noun[0] : noun[1]}`;
  const where =
    online === 'offline'
      ? `You're offline: searching the ${count(deviceCount)} on this device.`
      : online === 'failed'
        ? `Online search is unavailable (${onlineMessage ?? 'try again later'}): showing the ${noun[1]} on this device.`
        : null;
  return (
    <div className="search-summary">
      {where ? <p className="notice search-where">{where}</p> : null}
      <p role="status" className="muted">
        {found === undefined
          ? 'Searching...'
          : `${count(found)} found${onlineOnly ? `, ${onlineOnly.toLocaleString('en-US')} of them online only` : ''}.`}
        {online === 'searching' && found !== undefined ? ' Searching online...' : ''}
      </p>
    </div>
  );
}

/** Whether a result is on this device (and opens offline) or was found online only. */
export function AvailabilityBadge({ onDevice }: { onDevice: boolean }) {
  return onDevice ? (
    <span className="badge badge-on-device">Available offline</span>
  ) : (
    <span className="badge badge-online-only">Online only</span>
  );
}
