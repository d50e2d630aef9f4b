/**
 * Asks the browser to keep this origin's storage (the local database) under storage pressure.
 * Called after sign-in: before that there is nothing of the user's worth keeping.
 * Resolves to whether storage is persistent; never throws (unsupported browsers just get false).
 */
export async function requestPersistentStorage(): Promise<boolean> {
  try {
    if (!navigator.storage?.persist) return false;
    if (await navigator.storage.persisted()) return true;
    return await navigator.storage.persist();
  } catch {
    return false;
  }
}
