// The `local` driver: files under STORAGE_DIR, one per key at the same relative path, served by
// the /cdn route (src/modules/cdn/cdn.routes.ts) with the headers they were stored with. Text and
// JSON are also kept gzip- and br-compressed beside the file, each form made once: the published
// payload versions are read by every visitor, and at 10,000 locations they are megabytes, too
// large to compress per request. A file written as immutable gets its forms at its first request
// for them, as a CDN compresses at its edge: a chunked publish writes hundreds of area files of
// which a visitor reads a few, and compressing all of them was a third of the publish. Others
// get theirs when written (docs/api.md, Storage and CDN).
import { mkdir, readFile, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writeAtomic } from '../atomic-write.ts';
import {
  CONTENT_CODINGS,
  type ContentCoding,
  chooseContentCoding,
  compressBody,
  compressTo,
} from '../content-coding.ts';
import { assertStorageKey, folderOf, InvalidStorageKeyError, publicUrlFor } from './keys.ts';
import type { Storage } from './types.ts';

type Compressed = Exclude<ContentCoding, 'identity'>;
const COMPRESSED: readonly Compressed[] = ['gzip', 'br'];

interface LocalMeta {
  contentType: string;
  cacheControl?: string;
  /** The compressed forms kept beside the file (`.{name}.gz`, `.{name}.br`). */
  encodings?: Compressed[];
  /** The forms are made at their first request (an immutable file) and kept when smaller. */
  compressOnRead?: boolean;
}

/** Types worth compressing: JSON (payloads, pointers), JavaScript and text. */
const COMPRESSIBLE_TYPE = /^\s*(text\/|application\/(json|javascript)\b|[^;\s]*\+json\b)/i;
/**
 * Cache-Control's promise that the bytes under the key never change (a key named by its
 * content's hash): a form made at any time is the form of those bytes.
 */
const IMMUTABLE = /(^|,)\s*immutable\s*(,|$)/i;
const SUFFIX: Record<Compressed, string> = { gzip: '.gz', br: '.br' };

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

async function readIfPresent(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if (isAbsent(error)) return undefined;
    throw error;
  }
}

async function removeIfPresent(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if (!isAbsent(error)) throw error;
  }
}

/**
 * Files under `dir`, one per key at the same relative path. Content-Type, Cache-Control and the
 * compressed forms kept live in a sidecar `.{name}.meta.json` next to the file, the forms in
 * `.{name}.gz` and `.{name}.br` (no key can name them: segments never start with a dot). A form
 * is kept only when it is smaller than the file.
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
  const formOf = (file: string, coding: Compressed) =>
    path.join(path.dirname(file), `.${path.basename(file)}${SUFFIX[coding]}`);

  async function readMeta(file: string): Promise<Partial<LocalMeta>> {
    const text = await readIfPresent(metaOf(file));
    // A file dropped in by hand has no sidecar: its type comes from its extension.
    return text ? (JSON.parse(text.toString('utf8')) as LocalMeta) : {};
  }

  /** Forms being made, by path: requests arriving meanwhile wait for the same one. */
  const making = new Map<string, Promise<Buffer | undefined>>();

  /**
   * The form of an immutable file, made now and kept beside it; undefined when the file is gone
   * or the form would not be smaller (that request then gets the file itself).
   */
  function formOnRead(file: string, coding: Compressed): Promise<Buffer | undefined> {
    const form = formOf(file, coding);
    let made = making.get(form);
    if (!made) {
      made = (async () => {
        const body = await readIfPresent(file);
        if (!body) return undefined;
        const compressed = await compressTo(body, coding, 'fast');
        if (compressed.length >= body.length) return undefined;
        // Not kept (the folder went meanwhile, the disk is full): the next request makes it again.
        await writeAtomic(form, compressed).catch(() => {});
        return compressed;
      })().finally(() => making.delete(form));
      making.set(form, made);
    }
    return made;
  }

  return {
    driver: 'local',

    async put(key, body, { contentType, cacheControl }) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const compressible = COMPRESSIBLE_TYPE.test(contentType);
      const compressOnRead = compressible && IMMUTABLE.test(cacheControl ?? '');
      const compressed = compressible && !compressOnRead ? await compressBody(body, 'fast') : undefined;
      const encodings = COMPRESSED.filter((coding) => compressed && compressed[coding].length < body.length);
      // Forms first, then the metadata naming them, then the file: a reader that sees the new
      // metadata finds its forms.
      for (const coding of encodings) await writeAtomic(formOf(file, coding), compressed![coding]);
      const meta: LocalMeta = {
        contentType,
        ...(cacheControl ? { cacheControl } : {}),
        ...(encodings.length > 0 ? { encodings } : {}),
        ...(compressOnRead ? { compressOnRead } : {}),
      };
      await writeAtomic(metaOf(file), JSON.stringify(meta));
      await writeAtomic(file, body);
      // Forms of an earlier version that this one does not have.
      for (const coding of COMPRESSED) {
        if (!encodings.includes(coding)) await removeIfPresent(formOf(file, coding));
      }
    },

    async get(key, options = {}) {
      const file = fileOf(key);
      const meta = await readMeta(file);
      const codings = CONTENT_CODINGS.filter(
        (coding) => coding === 'identity' || meta.compressOnRead || meta.encodings?.includes(coding),
      );
      const headers = {
        contentType:
          meta.contentType ??
          contentTypeByExtension[path.extname(file).toLowerCase()] ??
          'application/octet-stream',
        cacheControl: meta.cacheControl,
        codings,
      };
      const coding = chooseContentCoding(options.acceptEncoding, codings);
      if (coding !== 'identity') {
        // Missing while a write replaces it (the file itself then answers), or not made yet.
        const form =
          (await readIfPresent(formOf(file, coding))) ??
          (meta.compressOnRead ? await formOnRead(file, coding) : undefined);
        if (form) return { ...headers, body: form, contentEncoding: coding };
      }
      const body = await readIfPresent(file);
      return body ? { ...headers, body } : undefined;
    },

    async delete(key) {
      const file = fileOf(key);
      // The forms first: a reader never gets a form of a file already gone.
      for (const coding of COMPRESSED) await removeIfPresent(formOf(file, coding));
      await removeIfPresent(file);
      await removeIfPresent(metaOf(file));
    },

    async deletePrefix(prefix) {
      const folder = path.join(root, ...folderOf(prefix).split('/'));
      await rm(folder, { recursive: true, force: true });
    },

    publicUrl: publicUrlFor(options.cdnUrl),

    async close() {},
  };
}
