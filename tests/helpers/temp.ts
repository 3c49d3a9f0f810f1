// Temporary directories for one test run, all under a root that global setup removes at the
// end, so runs leave nothing behind in the system temp directory.
import { chmodSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

/** A fresh directory, enterable by other users (embedded clusters run as the postgres user). */
export function tempDir(prefix = 'dir-'): string {
  const dir = mkdtempSync(path.join(inject('tempRoot'), prefix));
  chmodSync(dir, 0o755);
  return dir;
}
