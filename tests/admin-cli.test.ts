// `npm run admin:create`, run as the real CLI against the test file's database.
import { spawnSync } from 'node:child_process';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersTable } from '../src/modules/users/users.table.ts';
import { createUser } from './factories/users.ts';
import { createTestContext, TEST_APP_KEY, TEST_JWT_SECRET, type TestContext } from './helpers/app.ts';
import { tempDir } from './helpers/temp.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

function adminCreate(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/create-admin.ts', ...args], {
    env: {
      ...process.env,
      DATABASE_URL: ctx.database.url,
      JWT_SECRET: TEST_JWT_SECRET,
      APP_KEY: TEST_APP_KEY,
      DATA_DIR: tempDir('cli-'),
      LOG_LEVEL: 'silent',
    },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

const findByEmail = async (email: string) =>
  ctx.deps.db
    .select()
    .from(usersTable)
    .where(eq(sql`lower(${usersTable.email})`, email.toLowerCase()));

describe('npm run admin:create', () => {
  it('creates an admin who can log in', async () => {
    const result = adminCreate(
      '--email',
      'root@example.test',
      '--password',
      'root-password',
      '--name',
      'Root',
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/created admin #\d+ <root@example.test>/);
    const [admin] = await findByEmail('root@example.test');
    expect(admin).toMatchObject({ role: 'admin', name: 'Root' });

    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'root@example.test', password: 'root-password' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user.permissions).toEqual(['admin.access', 'users.manage']);
  });

  it('promotes an existing user instead of creating a second one', async () => {
    const user = await createUser(ctx.deps, { email: 'promote-me@example.test' });
    const result = adminCreate('--email', 'Promote-Me@example.test', '--password', 'new-password-1');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`promoted admin #${user.id}`);
    const rows = await findByEmail('promote-me@example.test');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.role).toBe('admin');
  });

  it('refuses bad arguments and writes nothing', async () => {
    const before = await ctx.deps.db.select({ id: usersTable.id }).from(usersTable);
    const result = adminCreate('--email', 'not-an-email', '--password', 'short');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--email');
    expect(result.stderr).toContain('--password');
    const after = await ctx.deps.db.select({ id: usersTable.id }).from(usersTable);
    expect(after).toHaveLength(before.length);
  });
});
