// Upload spools: request bodies written to disk before they are read (the CSV import). They live
// under `<DATA_DIR>/spool/`, on the service's own volume rather than the system temp directory,
// and a process killed mid-upload leaves its spool where the next start sweeps it.
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * A spool untouched this long belongs to no running upload: the largest accepted upload (50 MB)
 * takes minutes on a slow link, never an hour.
 */
export const SPOOL_MAX_AGE_MS = 60 * 60 * 1000;

const spoolRoot = (dataDir: string) => path.join(dataDir, 'spool');

/** A fresh directory for one upload; the caller removes it when done. */
export async function createSpool(dataDir: string, prefix: string): Promise<string> {
  const root = spoolRoot(dataDir);
  await mkdir(root, { recursive: true });
  return mkdtemp(path.join(root, prefix));
}

/** The newest modification time of a spool and the files directly in it. */
async function lastTouched(target: string): Promise<number> {
  const info = await stat(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of await readdir(target)) {
    newest = Math.max(newest, (await stat(path.join(target, entry))).mtimeMs);
  }
  return newest;
}

/** Removes the spools nobody touched for `maxAgeMs`; answers how many. */
export async function sweepSpools(dataDir: string, maxAgeMs = SPOOL_MAX_AGE_MS): Promise<number> {
  const root = spoolRoot(dataDir);
  let entries: string[];
  try {
    entries = await readdir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const now = Date.now();
  let removed = 0;
  for (const name of entries) {
    const target = path.join(root, name);
    if (now - (await lastTouched(target)) > maxAgeMs) {
      await rm(target, { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}
