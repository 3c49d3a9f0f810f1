// The `local` driver: files under STORAGE_DIR, one per key at the same relative path, served by
// the /cdn route (src/modules/cdn/cdn.routes.ts) with the headers they were stored with.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertStorageKey, folderOf, InvalidStorageKeyError, publicUrlFor } from './keys.ts';
import type { Storage } from './types.ts';

interface LocalMeta {
  contentType: string;
  cacheControl?: string;
}

const contentTypeByExtension: Record<string, string> = {
  '.json': 'application/json',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

/** ENOENT and friends: the path names no file (missing, or a folder, or under a file). */
const isAbsent = (error: unknown) => ['ENOENT', 'ENOTDIR', 'EISDIR'].includes(errorCode(error) ?? '');

/** Writes through a temporary file in the same folder and a rename, so readers never see half a file. */
async function writeAtomic(file: string, data: Buffer | string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, data);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Files under `dir`, one per key at the same relative path. Content-Type and Cache-Control live
 * in a sidecar `.{name}.meta.json` next to the file (no key can name it: segments never start
 * with a dot).
 */
export function createLocalStorage(options: { dir: string; cdnUrl: string }): Storage {
  const root = path.resolve(options.dir);

  const fileOf = (key: string) => {
    assertStorageKey(key);
    const file = path.join(root, ...key.split('/'));
    // Belt and braces: the key rules already make this impossible.
    if (!file.startsWith(root + path.sep)) throw new InvalidStorageKeyError(key);
    return file;
  };
  const metaOf = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.meta.json`);

  return {
    driver: 'local',

    async put(key, body, { contentType, cacheControl }) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const meta: LocalMeta = { contentType, ...(cacheControl ? { cacheControl } : {}) };
      // Metadata first: a reader that sees the new body also sees its headers.
      await writeAtomic(metaOf(file), JSON.stringify(meta));
      await writeAtomic(file, body);
    },

    async get(key) {
      const file = fileOf(key);
      let body: Buffer;
      try {
        body = await readFile(file);
      } catch (error) {
        if (isAbsent(error)) return undefined;
        throw error;
      }
      let meta: Partial<LocalMeta> = {};
      try {
        meta = JSON.parse(await readFile(metaOf(file), 'utf8')) as LocalMeta;
      } catch (error) {
        // A file dropped in by hand has no sidecar: fall back to its extension.
        if (!isAbsent(error)) throw error;
      }
      return {
        body,
        contentType:
          meta.contentType ??
          contentTypeByExtension[path.extname(file).toLowerCase()] ??
          'application/octet-stream',
        cacheControl: meta.cacheControl,
      };
    },

    async delete(key) {
      const file = fileOf(key);
      for (const target of [file, metaOf(file)]) {
        try {
          await unlink(target);
        } catch (error) {
          if (!isAbsent(error)) throw error;
        }
      }
    },

    async deletePrefix(prefix) {
      const folder = path.join(root, ...folderOf(prefix).split('/'));
      await rm(folder, { recursive: true, force: true });
    },

    publicUrl: publicUrlFor(options.cdnUrl),

    async close() {},
  };
}
