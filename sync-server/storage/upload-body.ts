import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { Busboy } from '@fastify/busboy';
import { storageErrors } from './storage-errors.ts';

/** An upload's file as a stream, with what the client declared about it. */
export type UploadBody = { file: Readable; declaredType: string | undefined; cacheControl: string | undefined };

/**
 * The file of an upload as storage-js sends it: a Blob or File as multipart form data (a
 * `cacheControl` field, then the file part), anything else as the raw body with its content type and
 * `cache-control` header. Either way a stream: the file is never held in memory.
 */
export function uploadBody(request: FastifyRequest): Promise<UploadBody> {
  const contentType = request.headers['content-type'];
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) {
    return Promise.resolve({
      file: request.raw,
      declaredType: contentType,
      cacheControl: request.headers['cache-control'],
    });
  }
  return new Promise((resolve, reject) => {
    let cacheControl: string | undefined;
    let found = false;
    const parser = Busboy({
      headers: { ...request.headers, 'content-type': contentType },
      limits: { files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 },
    });
    parser.on('field', (name, value) => {
      if (name === 'cacheControl') cacheControl = value;
    });
    parser.on('file', (_field, file, _fileName, _encoding, mimeType) => {
      found = true;
      resolve({ file, declaredType: mimeType, cacheControl });
    });
    parser.on('error', (err) =>
      found ? undefined : reject(storageErrors.invalidRequest(String((err as Error).message ?? err))),
    );
    parser.on('finish', () => {
      if (!found) reject(storageErrors.invalidRequest('No file in the upload'));
    });
    request.raw.pipe(parser);
  });
}
