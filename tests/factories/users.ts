// Users and their tokens, written through the same repositories and services as the app.
import type { Deps } from '../../src/deps.ts';
import { hashPassword } from '../../src/lib/crypto.ts';
import { createUsersRepository, type NewUser } from '../../src/modules/users/users.repository.ts';
import type { UserRow } from '../../src/modules/users/users.table.ts';
import { createWorkspacesRepository } from '../../src/modules/workspaces/workspaces.repository.ts';

export const DEFAULT_PASSWORD = 'correct horse battery';
let sequence = 0;

/**
 * One argon2 hash per password, shared by the users given it: a hash costs about 0.14 s of CPU (as
 * it should), and the suite creates hundreds of users. Signing in still verifies it.
 */
const hashes = new Map<string, Promise<string>>();
function sharedHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

export async function createUser(
  deps: Deps,
  overrides: Partial<NewUser> & { password?: string } = {},
): Promise<UserRow> {
  sequence += 1;
  const { password = DEFAULT_PASSWORD, ...values } = overrides;
  const user = await createUsersRepository(deps.db).insert({
    name: `User ${sequence}`,
    email: `user${sequence}-${Date.now()}@example.test`,
    passwordHash: await sharedHash(password),
    role: 'user',
    subscriptionStatus: 'trialing',
    subscriptionTier: 'free',
    trialEndsAt: new Date(Date.now() + 14 * 24 * 3600 * 1000),
    ...values,
  });
  await createWorkspacesRepository(deps.db).insertWithMember(`${user.name}'s workspace`, {
    userId: user.id,
    role: 'owner',
  });
  return user;
}

/** A bearer token with its session row, as POST /login would issue. */
export async function tokenFor(deps: Deps, user: UserRow): Promise<string> {
  const issued = await deps.services.auth.startSession(user, { ip: '127.0.0.1', userAgent: 'vitest' });
  return issued.token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
