/**
 * Where the browser fetches a stored object. Records keep the object's path
 * (`/storage/v1/object/public/…`, the same on every deployment): Pacta's own origin serves it, or the
 * hosted project's Storage when the build names one (VITE_SUPABASE_URL).
 */
export function storageSrc(path: string): string {
  const hosted = import.meta.env.VITE_SUPABASE_URL;
  return hosted ? new URL(path, hosted).href : path;
}
