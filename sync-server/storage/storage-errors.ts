/**
 * A refusal of the storage API, answered in Supabase Storage's shape so `supabase.storage` reads it
 * as it reads a hosted project's: `{ statusCode, code, error, message }` (statusCode a string, as
 * Storage sends it). storage-js puts `message` in `error.message` and `statusCode` in
 * `error.statusCode`. The HTTP status is the real one.
 */
export class StorageError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  body(requestId: string): { statusCode: string; code: string; error: string; message: string; request_id: string } {
    return {
      statusCode: String(this.status),
      code: this.code,
      error: this.code,
      message: this.message,
      request_id: requestId,
    };
  }
}

/** The refusals Storage itself answers with, by the names of its error codes. */
export const storageErrors = {
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found'),
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'Object not found'),
  invalidKey: (key: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${key}`),
  invalidJwt: (message = 'Invalid JWT') => new StorageError(400, 'InvalidJWT', message),
  invalidRequest: (message: string) => new StorageError(400, 'InvalidRequest', message),
  invalidMimeType: (type: string) => new StorageError(415, 'InvalidMimeType', `mime type ${type} is not supported`),
  entityTooLarge: () => new StorageError(413, 'EntityTooLarge', 'The object exceeded the maximum allowed size'),
  quotaExceeded: () =>
    new StorageError(413, 'EntityTooLarge', 'The object exceeded your storage quota: remove some files first'),
  accessDenied: (message = 'new row violates row-level security policy') =>
    new StorageError(403, 'AccessDenied', message),
  uploadBusy: () =>
    new StorageError(423, 'ResourceLocked', 'This upload is busy with another request: try again in a moment'),
  alreadyExists: () => new StorageError(409, 'KeyAlreadyExists', 'The resource already exists'),
  invalidImage: () => new StorageError(415, 'InvalidMimeType', 'The image could not be read'),
};
