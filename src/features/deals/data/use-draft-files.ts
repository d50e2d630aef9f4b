import { useEffect, useState } from 'react';
import { shownFileKind, THUMBNAIL_SIDE } from '../../../domain/files.ts';
import { getSupabase } from '../../../lib/supabase.ts';
import { useBrowserOnline } from '../../../lib/use-online.ts';

/** Signed addresses of a draft's files last an hour: long enough to review, short if one leaks. */
const SIGNED_URL_SECONDS = 3600;

export type DraftFileUrls = { url: string; thumbnail: string | null };

/**
 * Signed addresses for a draft's files in the private deliverables bucket (only the brand and the
 * creator who uploaded them get one), with a thumbnail for each image. Empty while asked for, or
 * offline; asked again when the browser is back online.
 */
export function useDraftFileUrls(paths: readonly string[]): Record<string, DraftFileUrls> {
  const [urls, setUrls] = useState<Record<string, DraftFileUrls>>({});
  const key = paths.join('\n');
  const online = useBrowserOnline();
  useEffect(() => {
    const list = key ? key.split('\n') : [];
    if (list.length === 0 || !online) return;
    let cancelled = false;
    const bucket = getSupabase().storage.from('deliverables');
    void (async () => {
      const { data } = await bucket.createSignedUrls(list, SIGNED_URL_SECONDS);
      const found: Record<string, DraftFileUrls> = {};
      for (const signed of data ?? []) {
        if (signed.path && signed.signedUrl) found[signed.path] = { url: signed.signedUrl, thumbnail: null };
      }
      await Promise.all(
        list
          .filter((path) => found[path] && shownFileKind(path) === 'image')
          .map(async (path) => {
            const { data: thumb } = await bucket.createSignedUrl(path, SIGNED_URL_SECONDS, {
              transform: { width: THUMBNAIL_SIDE, height: THUMBNAIL_SIDE },
            });
            found[path]!.thumbnail = thumb?.signedUrl ?? null;
          }),
      );
      if (!cancelled) setUrls(found);
    })().catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [key, online]);
  return urls;
}
