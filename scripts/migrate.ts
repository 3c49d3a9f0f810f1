// `npm run migrate` (Procfile `release`): applies drizzle/ to the configured database.
import { loadConfigOrExit } from '../src/config/config.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { resolveDatabase } from '../src/db/resolve.ts';

const config = loadConfigOrExit();
const database = await resolveDatabase(config);
try {
  await runMigrations(database.url);
  console.log('migrations applied');
} finally {
  await database.release();
}
