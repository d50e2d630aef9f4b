import { useEffect, useState } from 'react';
import { getSupabase } from '../../../lib/supabase.ts';

/** Signed addresses of a conversation's files last an hour: long enough to read, short if one leaks. */
const SIGNED_URL_SECONDS = 3600;

/**
 * A signed address for a file in the private attachments bucket (only the conversation's two members
 * get one); null while it is asked for, or offline.
 */
export function useAttachmentUrl(path: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    void getSupabase()
      .storage.from('attachments')
      .createSignedUrl(path, SIGNED_URL_SECONDS)
      .then(({ data }) => {
        if (!cancelled) setUrl(data?.signedUrl ?? null);
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [path]);
  return url;
}
