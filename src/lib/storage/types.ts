// The storage interface: published files and uploaded images, by key. Drivers: local.storage.ts
// and s3.storage.ts; key rules: keys.ts; choosing a driver: storage.ts.
import type { ContentCoding } from '../content-coding.ts';

export interface PutOptions {
  contentType: string;
  cacheControl?: string;
}

export interface StoredObject {
  /** The bytes, in `contentEncoding` when one is given. */
  body: Buffer;
  contentType: string;
  cacheControl: string | undefined;
  /** The coding of `body` when the driver sent a compressed form it keeps (local driver). */
  contentEncoding?: Exclude<ContentCoding, 'identity'>;
  /** Every coding the driver keeps the object in, identity included; absent: identity only. */
  codings?: ContentCoding[];
}

export interface GetOptions {
  /** The client's Accept-Encoding: a driver keeping compressed forms picks one it accepts. */
  acceptEncoding?: string;
}

export interface Storage {
  readonly driver: 'local' | 's3';
  /** Writes (or replaces) the object. */
  put(key: string, body: Buffer, options: PutOptions): Promise<void>;
  /** The object, or undefined when there is none under the key. */
  get(key: string, options?: GetOptions): Promise<StoredObject | undefined>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object under a folder prefix such as `finders/{token}/` (trailing slash required). */
  deletePrefix(prefix: string): Promise<void>;
  /** Where clients fetch the object: `${CDN_URL}/${key}`. */
  publicUrl(key: string): string;
  /** Releases connections; the storage is not used afterwards. */
  close(): Promise<void>;
}
