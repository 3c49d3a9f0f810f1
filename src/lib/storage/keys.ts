// Which keys the storage accepts, the same for every driver, so code that works on one works on
// the other and no key can leave the storage directory or need escaping in a URL.

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
export function folderOf(prefix: string): string {
  if (!prefix.endsWith('/')) throw new InvalidStorageKeyError(prefix);
  const folder = prefix.slice(0, -1);
  assertStorageKey(folder);
  return folder;
}

export const publicUrlFor = (cdnUrl: string) => (key: string) => {
  assertStorageKey(key);
  return `${cdnUrl}/${key}`;
};
