/**
 * A campaign brief draft's fields, each with the time and the device of its last edit, so two
 * devices editing one draft merge field by field: the later edit of a field wins; a field edited on
 * one device only is kept (docs/decisions/017-drafts-merge-field-by-field.md). The database merges
 * every update the same way (pacta_private.merge_draft_fields); keep the two in step.
 */

export type DraftFieldEntry = { value: unknown; at: number; device: string };
export type DraftFields = Record<string, DraftFieldEntry>;

/** The `payload` of a drafts row of kind 'campaign_brief'. */

function isEntry(value: unknown): value is DraftFieldEntry {
  if (!value || typeof value !== 'object') return false;
  const e = value as Record<string, unknown>;
  return 'value' in e && typeof e.at === 'number' && Number.isFinite(e.at) && typeof e.device === 'string';
}

/** The well-formed field entries of a stored payload (anything else is ignored). */
export function draftFieldsOf(payload: unknown): DraftFields {
  const fields = payload && typeof payload === 'object' ? (payload as Record<string, unknown>).fields : undefined;
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return {};
  const out: DraftFields = {};
  for (const [name, entry] of Object.entries(fields)) if (isEntry(entry)) out[name] = entry;
  return out;
}

/**
 * Whether `a` is at least as recent as `b`: by time, then by device name (byte order, as the
 * database compares with collation "C"; device names are ASCII, see `deviceName`).
 */
export function entryWins(a: DraftFieldEntry | undefined, b: DraftFieldEntry | undefined): boolean {
  if (!b) return true;
  if (!a) return false;
  if (a.at !== b.at) return a.at > b.at;
  return a.device >= b.device;
}

/** Field by field, the more recent entry; a field only one side has is kept. */
export function mergeDraftFields(mine: DraftFields, theirs: DraftFields): DraftFields {
  const out: DraftFields = {};
  for (const name of new Set([...Object.keys(mine), ...Object.keys(theirs)])) {
    out[name] = entryWins(mine[name], theirs[name]) ? mine[name]! : theirs[name]!;
  }
  return out;
}

/**
 * Records an edit of one field. Its time is the device's clock, but never earlier than the entry it
 * replaces: an edit made after seeing another device's edit must win even if this device's clock is
 * behind (a Lamport-style bump by one millisecond).
 */
export function editDraftField(
  fields: DraftFields,
  name: string,
  value: unknown,
  now: number,
  device: string,
): DraftFields {
  const previous = fields[name];
  if (previous && sameValue(previous.value, value)) return fields;
  const at = previous ? Math.max(now, previous.at + 1) : now;
  return { ...fields, [name]: { value, at, device } };
}

/** The latest edit of the draft (for "last edited … on …"), or null for an empty draft. */
export function lastDraftEdit(fields: DraftFields): { at: number; device: string } | null {
  let latest: DraftFieldEntry | undefined;
  for (const entry of Object.values(fields)) if (entryWins(entry, latest)) latest = entry;
  return latest ? { at: latest.at, device: latest.device } : null;
}

/** A readable, ASCII-only device name ("Chrome on Android"), from a user agent string. */
export function deviceName(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'Browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux|X11/.test(userAgent)
            ? 'Linux'
            : 'another system';
  return `${browser} on ${system}`;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
