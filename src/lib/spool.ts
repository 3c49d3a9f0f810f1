// Upload spools: request bodies written to disk before they are read (the CSV import). They live
// under `<DATA_DIR>/spool/`, on the service's own volume rather than the system temp directory.
// A process killed mid-upload leaves its spool (up to the 50 MB upload limit) behind; the next
// start sweeps it at once, since each spool's name says which process on which host owns it.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * A spool whose owner cannot be checked (another host sharing the volume, a pid reused since)
 * is removed once untouched this long: the largest accepted upload (50 MB) takes minutes on a
 * slow link, never an hour.
 */
export const SPOOL_MAX_AGE_MS = 60 * 60 * 1000;

const spoolRoot = (dataDir: string) => path.join(dataDir, 'spool');

/** This host, as a spool's name carries it: eight hex digits of its hostname's SHA-1. */
const HOST_TAG = createHash('sha1').update(hostname()).digest('hex').slice(0, 8);

/** `<prefix><pid>.<host tag>.<6 random characters>`, the last part from mkdtemp. */
const OWNER = /(\d+)\.([0-9a-f]{8})\.[A-Za-z0-9]{6}$/;

/** This process's spools not yet removed: never swept, whoever calls the sweep. */
const ownSpools = new Set<string>();

/** A fresh directory for one upload, named for its owner; remove it with removeSpool. */
export async function createSpool(dataDir: string, prefix: string): Promise<string> {
  const root = spoolRoot(dataDir);
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(path.join(root, `${prefix}${process.pid}.${HOST_TAG}.`));
  ownSpools.add(dir);
  return dir;
}

export async function removeSpool(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  ownSpools.delete(dir);
}

/** Signal 0 checks a pid without touching it: ESRCH means no such process (EPERM: one of another user). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A spool of this host whose owner is gone: its pid names no process, or names this process,
 * which did not make it (a restarted container runs as the same pid).
 */
function ownerIsGone(name: string): boolean {
  const owner = OWNER.exec(name);
  if (!owner || owner[2] !== HOST_TAG) return false;
  const pid = Number(owner[1]);
  return pid === process.pid || !processExists(pid);
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

/**
 * Removes the spools no upload can still be writing: at once when their owner on this host is
 * gone, otherwise once nobody touched them for `maxAgeMs`. Answers how many.
 */
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
    if (ownSpools.has(target)) continue;
    let stale: boolean;
    try {
      stale = ownerIsGone(name) || now - (await lastTouched(target)) > maxAgeMs;
    } catch (error) {
      // Removed meanwhile by its owner.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if (stale) {
      await rm(target, { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}
