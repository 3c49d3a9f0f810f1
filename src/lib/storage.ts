// Object storage for published files and uploaded images: one interface, two drivers. `local`
// keeps files under STORAGE_DIR (served by the /cdn route, src/modules/cdn/cdn.routes.ts); `s3` talks to
// any S3-compatible store. Both accept the same keys (assertStorageKey), so code that works on
// one works on the other, and both keep each object's Content-Type and Cache-Control.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { Config } from '../config.ts';

export interface PutOptions {
  contentType: string;
  cacheControl?: string;
}

export interface StoredObject {
  body: Buffer;
  contentType: string;
  cacheControl: string | undefined;
}

export interface Storage {
  readonly driver: 'local' | 's3';
  /** Writes (or replaces) the object. */
  put(key: string, body: Buffer, options: PutOptions): Promise<void>;
  /** The object, or undefined when there is none under the key. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object under a folder prefix such as `finders/{token}/` (trailing slash required). */
  deletePrefix(prefix: string): Promise<void>;
  /** Where clients fetch the object: `${CDN_URL}/${key}`. */
  publicUrl(key: string): string;
  /** Releases connections; the storage is not used afterwards. */
  close(): Promise<void>;
}

export class InvalidStorageKeyError extends Error {
  constructor(key: string) {
    super(`Invalid storage key: ${JSON.stringify(key.slice(0, 200))}`);
    this.name = 'InvalidStorageKeyError';
  }
}

/**
 * A segment starts with a letter, digit, `_` or `-` (so never `.`, `..` or a hidden file, which
 * leaves dot-names free for the local driver's own sidecar and temporary files) and continues
 * with those or dots. No slashes at either end, no empty segments, no backslashes: a key can
 * never leave the storage directory, and it needs no escaping in a URL.
 */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}$/;
const MAX_KEY_LENGTH = 1024;

export function isValidStorageKey(key: string): boolean {
  return key.length > 0 && key.length <= MAX_KEY_LENGTH && key.split('/').every((s) => SEGMENT.test(s));
}

export function assertStorageKey(key: string): void {
  if (!isValidStorageKey(key)) throw new InvalidStorageKeyError(key);
}

/** `finders/abc/` -> `finders/abc`; a prefix must name a folder, so `workspaces/1` never hits `workspaces/12`. */
function folderOf(prefix: string): string {
  if (!prefix.endsWith('/')) throw new InvalidStorageKeyError(prefix);
  const folder = prefix.slice(0, -1);
  assertStorageKey(folder);
  return folder;
}

const publicUrlFor = (cdnUrl: string) => (key: string) => {
  assertStorageKey(key);
  return `${cdnUrl}/${key}`;
};

// ---------------------------------------------------------------------------------------------
// local

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

// ---------------------------------------------------------------------------------------------
// s3

export interface S3StorageOptions {
  /** Keys per ListObjectsV2/DeleteObjects page (S3's maximum is 1000). */
  pageSize?: number;
}

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

export function createS3Storage(
  config: Pick<Config['storage'], 's3' | 'cdnUrl'>,
  options: S3StorageOptions = {},
): Storage {
  const { bucket, region, endpoint, accessKeyId, secretAccessKey, forcePathStyle } = config.s3;
  if (!bucket) throw new Error('S3 storage needs a bucket (S3_BUCKET)');
  const pageSize = Math.min(1000, Math.max(1, options.pageSize ?? 1000));
  const client = new S3Client({
    region,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle,
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    // Plain (not aws-chunked) bodies: every S3-compatible store accepts them (dependencies.md).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  return {
    driver: 's3',

    async put(key, body, { contentType, cacheControl }) {
      assertStorageKey(key);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          ContentLength: body.length,
          ...(cacheControl ? { CacheControl: cacheControl } : {}),
        }),
      );
    },

    async get(key) {
      assertStorageKey(key);
      try {
        const result = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        const bytes = result.Body ? await result.Body.transformToByteArray() : new Uint8Array();
        return {
          body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          contentType: result.ContentType ?? 'application/octet-stream',
          cacheControl: result.CacheControl,
        };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async delete(key) {
      assertStorageKey(key);
      // S3 answers 204 for a missing key too.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },

    async deletePrefix(prefix) {
      folderOf(prefix);
      let continuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            MaxKeys: pageSize,
            ContinuationToken: continuationToken,
          }),
        );
        const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (keys.length > 0) {
          const result = await client.send(
            new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }),
          );
          const failed = result.Errors ?? [];
          if (failed.length > 0) {
            const first = failed[0]!;
            throw new Error(
              `S3 could not delete ${failed.length} object(s) under ${prefix}: ${first.Key}: ${first.Code} ${first.Message}`,
            );
          }
        }
        // The token names the last key listed, so deleting that page does not disturb the next.
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
    },

    publicUrl: publicUrlFor(config.cdnUrl),

    async close() {
      client.destroy();
    },
  };
}

export function createStorage(config: Config['storage']): Storage {
  return config.driver === 's3' ? createS3Storage(config) : createLocalStorage(config);
}
