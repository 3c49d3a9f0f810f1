// `npm run admin:create -- --email E --password P [--name N]` (see src/modules/users/users.cli.ts).
import { loadConfigOrExit } from '../src/config/config.ts';
import { createDatabase } from '../src/db/client.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { resolveDatabase } from '../src/db/resolve.ts';
import { createOrPromoteAdmin, parseAdminArgs } from '../src/modules/users/users.cli.ts';

let args: ReturnType<typeof parseAdminArgs>;
try {
  args = parseAdminArgs(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

const config = loadConfigOrExit();
const database = await resolveDatabase(config);
const handle = createDatabase(database.url, { max: 1 });
try {
  await runMigrations(database.url);
  const result = await createOrPromoteAdmin(handle.db, args);
  console.log(`${result.created ? 'created' : 'promoted'} admin #${result.id} <${args.email}>`);
} finally {
  await handle.close();
  await database.release();
}
