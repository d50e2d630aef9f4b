import { storageErrors } from './storage-errors.ts';

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,254}$/;

/**
 * An object's name as a client sent it, checked: slash-separated segments of letters, digits, `.`,
 * `-`, `_` and spaces, none empty, none starting with a dot (no `..`, no hidden names), at most 1,024
 * characters. Anything else is refused as Storage refuses an invalid key, so no name can reach a
 * header, a folder rule or a file name unsanitised. Clients name files with `safeFileName`.
 */
export function checkedObjectName(name: string): string {
  const segments = name.split('/');
  if (name.length === 0 || name.length > 1024 || !segments.every((s) => SEGMENT.test(s) && !s.endsWith(' '))) {
    throw storageErrors.invalidKey(name.slice(0, 200));
  }
  return name;
}

/** A file name for a Content-Disposition header: the object's last segment, quoted safely. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const file = name.split('/').pop() ?? 'file';
  return `${kind}; filename="${file.replace(/[^A-Za-z0-9._ -]/g, '_')}"`;
}
