// A file written whole or not at all: through a temporary file in the same folder and a rename,
// so a reader (the local storage driver's readers, a server reading a build) never sees half of it.
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writeAtomic(file: string, data: Buffer | string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, data);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
