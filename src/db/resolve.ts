// Which database a process uses: DATABASE_URL when set, else the embedded development cluster.
import type { Config } from '../config.ts';
import { ensureDevDatabase } from './embedded.ts';

export interface ResolvedDatabase {
  url: string;
  /** Lets go of the embedded cluster when this process started it. */
  release(): Promise<void>;
}

export async function resolveDatabase(
  config: Config,
  log: (message: unknown) => void = () => {},
): Promise<ResolvedDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, release: async () => {} };
  return ensureDevDatabase(config.dataDir, log);
}
