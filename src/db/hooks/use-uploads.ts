import { useEffect, useState } from 'react';
import type { UploadJob } from '../uploads/upload-jobs.ts';
import { readUploadFile, watchUploads } from '../uploads/upload-store.ts';

/** The user's files waiting to upload, oldest first, live across tabs (empty while signed out). */
export function useUploads(userId: string | null | undefined): UploadJob[] {
  const [jobs, setJobs] = useState<UploadJob[]>([]);
  useEffect(() => {
    if (!userId) {
      setJobs([]);
      return;
    }
    const sub = watchUploads(userId).subscribe({
      next: (list) => setJobs([...list].sort((a, b) => a.createdAt.localeCompare(b.createdAt))),
      error: () => setJobs([]),
    });
    return () => sub.unsubscribe();
  }, [userId]);
  return jobs;
}

/** An address for the local copy of a queued file (an object URL, released when no longer shown). */
export function useLocalFileUrl(jobId: string | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!jobId) {
      setUrl(null);
      return;
    }
    let made: string | null = null;
    let cancelled = false;
    void readUploadFile(jobId).then((blob) => {
      if (cancelled || !blob) return;
      made = URL.createObjectURL(blob);
      setUrl(made);
    });
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [jobId]);
  return url;
}

export type { UploadJob };
