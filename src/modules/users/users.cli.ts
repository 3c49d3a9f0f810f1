// `npm run admin:create -- --email E --password P [--name N]`: creates an admin, or promotes
// the existing (not deleted) user with that email. The first admin can only come from here.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { createUsersRepository } from './users.repository.ts';
import { emailSchema, passwordSchema } from './users.schemas.ts';

const argsSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: z.string().trim().min(1).max(255).optional(),
});

export type AdminArgs = z.infer<typeof argsSchema>;

export function parseAdminArgs(argv: string[]): AdminArgs {
  const { values } = parseArgs({
    args: argv,
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
    strict: true,
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`);
    throw new Error(
      `Usage: npm run admin:create -- --email E --password P [--name N]\n${problems.join('\n')}`,
    );
  }
  return parsed.data;
}

export async function createOrPromoteAdmin(
  db: Database,
  args: AdminArgs,
): Promise<{ id: number; created: boolean }> {
  const users = createUsersRepository(db);
  const passwordHash = await hashPassword(args.password);
  return db.transaction(async (tx) => {
    const existing = await users.findActiveByEmail(args.email, tx);
    if (existing) {
      await users.update(
        existing.id,
        { role: 'admin', passwordHash, ...(args.name ? { name: args.name } : {}) },
        tx,
      );
      return { id: existing.id, created: false };
    }
    const user = await users.insert(
      {
        name: args.name ?? 'Administrator',
        email: args.email,
        passwordHash,
        role: 'admin',
        subscriptionStatus: 'active',
        subscriptionTier: 'custom',
      },
      tx,
    );
    return { id: user.id, created: true };
  });
}
