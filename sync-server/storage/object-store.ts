import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** A byte range of a stored file, both ends included (as HTTP's `Range: bytes=start-end`). */
export type ByteRange = { start: number; end: number };

/**
 * Where the bytes of stored objects live; which objects exist and who may read them is Postgres's
 * (storage.objects). Keys are made by the server only (`<bucket>/<version id>`), never from a name a
 * client sent. An upload is streamed into a temporary file first and moved in only once accepted,
 * so a refused or broken upload leaves nothing behind.
 */
export type ObjectStore = {
  /** A fresh path for a temporary file (removed by whoever made it, accepted or not). */
  tempPath(): string;
  /** Moves an accepted temporary file in under `key`. */
  put(key: string, tempPath: string): Promise<void>;
  /** The stored file's bytes (a range of them), or undefined when there is no such file. */
  open(key: string, range?: ByteRange): Promise<{ stream: Readable; size: number } | undefined>;
  /** Whether a file is stored under `key`. */
  has(key: string): Promise<boolean>;
  /** Removes the files under these keys; missing ones are no error. */
  remove(keys: string[]): Promise<void>;
};

const KEY = /^[a-z0-9-]+\/[0-9a-f-]{36}(\.thumb)?$/;

/** The local-disk store of `npm start`: `<dir>/objects/<bucket>/<version id>`, temporary files in `<dir>/tmp`. */
export async function createDiskStore(dir: string): Promise<ObjectStore> {
  const objects = path.join(dir, 'objects');
  const tmp = path.join(dir, 'tmp');
  await fsp.mkdir(objects, { recursive: true });
  await fsp.mkdir(tmp, { recursive: true });
  const fileOf = (key: string) => {
    // Keys are the server's own; a malformed one is a bug, never a path to follow.
    if (!KEY.test(key)) throw new Error(`not a storage key: ${key}`);
    return path.join(objects, key);
  };
  return {
    tempPath: () => path.join(tmp, randomUUID()),
    async put(key, tempPath) {
      const file = fileOf(key);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      await fsp.rename(tempPath, file);
    },
    async open(key, range) {
      const file = fileOf(key);
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(file, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
      const { size } = await handle.stat();
      // The stream closes the handle when it ends or is destroyed (a download cut short).
      return { stream: handle.createReadStream(range ?? {}), size };
    },
    async has(key) {
      return fsp.access(fileOf(key)).then(
        () => true,
        () => false,
      );
    },
    async remove(keys) {
      await Promise.all(keys.map((key) => fsp.rm(fileOf(key), { force: true })));
    },
  };
}
