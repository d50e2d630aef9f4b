import type { AppContext } from '../app.ts';
import type { ObjectStore } from './object-store.ts';
import type { SignedUrls } from './signed-urls.ts';

/** What the storage routes share: the app's context, where bytes live, signed URLs and the quota. */
export type StorageContext = {
  ctx: AppContext;
  store: ObjectStore;
  signedUrls: SignedUrls;
  /** All the objects one user may keep, in bytes. */
  quotaBytes: number;
  /** Where resumable uploads collect their bytes until they are complete. */
  resumableDir: string;
};
