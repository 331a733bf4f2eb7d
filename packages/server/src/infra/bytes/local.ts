import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, opendir, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ByteRange, ByteStore, StoredObject } from './bytes.ts';

/** Uploads in progress: written here, then renamed into place, so no key ever holds part of a file. */
const TEMP = '.incoming';
/**
 * Bytes a file's write stream gathers while a write is in flight: written together (one writev)
 * instead of one call per network chunk, which halved the main thread's time in fs writes. Not
 * more: at 1 MiB the thread pool's copies into the page cache cost several times the CPU they
 * cost at this size (measured per upload, docs/performance-notes.md), for no gain on the main thread.
 */
const WRITE_BUFFER = 512 * 1024;

/**
 * Bytes in a local directory (the default, `file:./data/files`). Several instances need the same
 * directory mounted on all of them. Keys are made of ids and `/` only (files/keys.ts), so they
 * stay inside the root.
 */
export function localByteStore(root: string): ByteStore {
  const pathOf = (key: string) => join(root, ...key.split('/'));
  // Made once, not on every upload (a mkdir per upload showed in profiles); again if someone removed it.
  let incoming: Promise<unknown> | undefined;
  const incomingDir = () => (incoming ??= mkdir(join(root, TEMP), { recursive: true }));
  return {
    kind: 'local',
    async put(key, body) {
      const temp = join(root, TEMP, randomUUID());
      await incomingDir();
      // The key's folder is made while the bytes arrive, not after them: the upload's answer waits for one step less.
      const folder = mkdir(dirname(pathOf(key)), { recursive: true });
      folder.catch(() => undefined);
      try {
        await pipeline(body, createWriteStream(temp, { flags: 'wx', highWaterMark: WRITE_BUFFER })).catch((e: NodeJS.ErrnoException) => {
          if (e.code === 'ENOENT') incoming = undefined;
          throw e;
        });
        await folder;
        await rename(temp, pathOf(key));
      } catch (e) {
        await unlink(temp).catch(() => undefined);
        // Nothing kept: a new file's folder goes too (a folder holding an original stays: rmdir removes only empty ones).
        await folder.then(() => rmdir(dirname(pathOf(key)))).catch(() => undefined);
        throw e;
      }
    },
    async get(key, range?: ByteRange): Promise<Readable | undefined> {
      const path = pathOf(key);
      try {
        await stat(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
      return createReadStream(path, range ? { start: range.start, end: range.end } : {});
    },
    async size(key) {
      try {
        return (await stat(pathOf(key))).size;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
    },
    async removePrefix(prefix) {
      // Prefixes name a folder (`<db>/<file>/`) or one key.
      await rm(pathOf(prefix.replace(/\/$/, '')), { recursive: true, force: true });
    },
    async *list(): AsyncIterable<StoredObject> {
      yield* walk(root, root);
    },
    async close() {},
  };
}

async function* walk(root: string, dir: string): AsyncIterable<StoredObject> {
  let entries: Awaited<ReturnType<typeof opendir>>;
  try {
    entries = await opendir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  for await (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(root, path);
    else if (entry.isFile()) {
      const s = await stat(path).catch(() => undefined);
      if (s) yield { key: relative(root, path).split(sep).join('/'), modifiedAt: s.mtimeMs };
    }
  }
}
