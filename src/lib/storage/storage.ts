// Object storage for published files and uploaded images: one interface (types.ts), two
// drivers. `local` keeps files under STORAGE_DIR; `s3` talks to any S3-compatible store. Both
// accept the same keys (keys.ts) and keep each object's Content-Type and Cache-Control.
import type { Config } from '../../config.ts';
import { createLocalStorage } from './local.storage.ts';
import { createS3Storage } from './s3.storage.ts';
import type { Storage } from './types.ts';

export { assertStorageKey, InvalidStorageKeyError, isValidStorageKey } from './keys.ts';
export { createLocalStorage } from './local.storage.ts';
export { createS3Storage, type S3StorageOptions } from './s3.storage.ts';
export type { PutOptions, Storage, StoredObject } from './types.ts';

export function createStorage(config: Config['storage']): Storage {
  return config.driver === 's3' ? createS3Storage(config) : createLocalStorage(config);
}
