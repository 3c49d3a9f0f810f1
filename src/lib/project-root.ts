// The folder holding package.json, found from this file (it runs from src/ or dist/src/): where
// builds (dist/widget, dist/dashboard) are written and read.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above src/lib');
    dir = parent;
  }
  return dir;
}

export const projectRoot = findProjectRoot();
