// The signed-in user's own account: PUT /me (name, email, password) and DELETE /me.
// Changing the email or the password, and deleting the account, take the password again;
// those checks are throttled per user like logins (5 failures a minute -> 429, however many
// arrive at once), so a stolen token is not a way to guess the password.

import type { Database } from '../../db/client.ts';
import { hashPassword, verifyPassword } from '../../lib/crypto.ts';
import type { FailureLimiter } from '../../lib/limiter.ts';
import type { SessionsRepository } from '../auth/sessions/sessions.repository.ts';
import type { AuthContext } from '../auth/sessions/sessions.table.ts';
import type { TwoFactorRepository } from '../auth/two-factor/two-factor.repository.ts';
import { createEmailTakenError } from '../users/users.errors.ts';
import type { NewUser, UsersRepository } from '../users/users.repository.ts';
import { toUserPayload, type UserPayload } from '../users/users.schemas.ts';
import type { UsersService } from '../users/users.service.ts';
import type { UserRow } from '../users/users.table.ts';
import {
  createCurrentPasswordIncorrectError,
  createCurrentPasswordRequiredError,
  createPasswordIncorrectError,
} from './account.errors.ts';
import type { DeleteMeBody, UpdateMeBody } from './account.schemas.ts';

interface AccountServiceDeps {
  db: Database;
  users: UsersRepository;
  sessions: SessionsRepository;
  twoFactor: TwoFactorRepository;
  usersService: UsersService;
  /** Wrong passwords of signed-in users, counted per user (5 a minute). */
  reauthLimiter: FailureLimiter;
}

export function createAccountService(deps: AccountServiceDeps) {
  const { db, users, sessions, twoFactor, usersService, reauthLimiter: limiter } = deps;

  /** Throws `wrong()` unless `password` is the user's; counted before it is checked, per user. */
  async function confirmPassword(user: UserRow, password: string, wrong: () => Error): Promise<void> {
    const attempt = await limiter.attempt(String(user.id));
    if (!(await verifyPassword(user.passwordHash, password))) throw wrong();
    await attempt.succeeded();
  }

  return {
    /**
     * Partial update. The email compared case-insensitively to the current one is not a change
     * (it needs no password; the new spelling is stored). A new password revokes every other
     * session in the same transaction; the session of the request stays.
     */
    async update({ user, session }: AuthContext, body: UpdateMeBody): Promise<UserPayload> {
      const emailChanges = body.email !== undefined && body.email.toLowerCase() !== user.email.toLowerCase();
      const newPassword = body.password;
      if (emailChanges || newPassword !== undefined) {
        if (!body.current_password) throw createCurrentPasswordRequiredError();
        await confirmPassword(user, body.current_password, createCurrentPasswordIncorrectError);
      }

      const values: Partial<NewUser> = {};
      if (body.name !== undefined) values.name = body.name;
      if (body.email !== undefined) values.email = body.email;
      if (newPassword !== undefined) values.passwordHash = await hashPassword(newPassword);
      if (Object.keys(values).length === 0) return toUserPayload(user);

      // Two accounts racing for one email: the unique index decides, and the error handler
      // answers its violation with the same 422 (src/unique-constraints.ts).
      return db.transaction(async (tx) => {
        if (emailChanges) {
          const holder = await users.findActiveByEmail(body.email!, tx);
          if (holder && holder.id !== user.id) throw createEmailTakenError();
        }
        const updated = await users.update(user.id, values, tx);
        if (newPassword !== undefined) {
          await sessions.revokeAllForUser(user.id, new Date(), session.id, tx);
          // A login half-way through its second factor was started with the old password.
          await twoFactor.deleteOpenChallenges(user.id, tx);
        }
        return toUserPayload(updated!);
      });
    },

    /** DELETE /me: the confirmation text was checked by the body schema; the password is checked here. */
    async delete({ user }: AuthContext, body: DeleteMeBody): Promise<{ message: string }> {
      await confirmPassword(user, body.password, createPasswordIncorrectError);
      await usersService.softDelete(user.id);
      return { message: 'Account deleted.' };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
