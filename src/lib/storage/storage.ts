// Object storage for published files and uploaded images: one interface (types.ts), two
// drivers. `local` keeps files under STORAGE_DIR; `s3` talks to any S3-compatible store. Both
// accept the same keys (keys.ts) and keep each object's Content-Type and Cache-Control. The
// AWS SDK (about 20 MB of a process's memory) is loaded only for the s3 driver.
import type { Config } from '../../config/config.ts';
import { createLocalStorage } from './local.storage.ts';
import type { Storage } from './types.ts';

export { assertStorageKey, InvalidStorageKeyError, isValidStorageKey } from './keys.ts';
export { createLocalStorage } from './local.storage.ts';
export type { S3StorageOptions } from './s3.storage.ts';
export type { GetOptions, PutOptions, Storage, StoredObject } from './types.ts';

export async function createStorage(config: Config['storage']): Promise<Storage> {
  if (config.driver !== 's3') return createLocalStorage(config);
  const { createS3Storage } = await import('./s3.storage.ts');
  return createS3Storage(config);
}
