// Enrolment of the second factor (docs/api.md, "Second factor and the login challenge"): TOTP setup
// and confirmation, email codes on and off, recovery codes. Secrets are encrypted with APP_KEY;
// recovery codes are stored as SHA-256 hashes only. Using a factor at login is
// login-challenge.service.ts.
import QRCode from 'qrcode';
import type { Database, Executor } from '../../../db/client.ts';
import type { SecretBox } from '../../../lib/crypto.ts';
import { createConflictError, createFieldError } from '../../../lib/errors.ts';
import { createTotpSecret, matchTotp, totpUri } from '../../../lib/totp.ts';
import type { NewUser, UsersRepository } from '../../users/users.repository.ts';
import type { UserRow } from '../../users/users.table.ts';
import { newRecoveryCode, RECOVERY_CODE_COUNT, recoveryHash } from './two-factor.codes.ts';
import type { TwoFactorRepository } from './two-factor.repository.ts';

const ISSUER = 'Location Finder';

/** Whether the user has any second factor on. */
export const hasSecondFactor = (user: UserRow) => user.totpEnabledAt !== null || user.emailTwoFactorEnabled;

interface TwoFactorDeps {
  db: Database;
  users: UsersRepository;
  codes: TwoFactorRepository;
  secretBox: SecretBox;
}

export function createTwoFactorService({ db, users, codes, secretBox }: TwoFactorDeps) {
  const isEnabled = hasSecondFactor;

  /** Replaces the user's recovery codes; the plain codes are returned once and never stored. */
  async function replaceRecoveryCodes(userId: number, tx: Executor): Promise<string[]> {
    const fresh = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await codes.replaceRecoveryCodes(userId, fresh.map(recoveryHash), tx);
    return fresh;
  }

  /** After a method is turned off: with none left, recovery codes and open challenges go too. */
  async function afterDisable(user: UserRow, tx: Executor) {
    await codes.deleteOpenChallenges(user.id, tx);
    if (!isEnabled(user)) await codes.deleteRecoveryCodes(user.id, tx);
  }

  /** The user row after the update; the caller acts on a user it has just read. */
  async function updateUser(id: number, values: Partial<NewUser>, tx: Executor = db): Promise<UserRow> {
    const row = await users.update(id, values, tx);
    if (!row) throw new Error(`user ${id} vanished during a two-factor change`);
    return row;
  }

  return {
    /** Starts (or restarts) TOTP enrolment with a pending secret; the active one, if any, stays until confirm. */
    async setupTotp(user: UserRow) {
      if (user.totpEnabledAt !== null)
        throw createConflictError('TOTP is already enabled. Disable it first.');
      const secret = createTotpSecret();
      await updateUser(user.id, { totpPendingSecretEncrypted: secretBox.encrypt(secret) });
      const uri = totpUri(secret, user.email, ISSUER);
      const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return {
        secret,
        otpauth_uri: uri,
        qr_code_uri: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
      };
    },

    async confirmTotp(user: UserRow, code: string) {
      if (user.totpEnabledAt !== null) throw createConflictError('TOTP is already enabled.');
      const pending = user.totpPendingSecretEncrypted;
      if (!pending) throw createConflictError('Start TOTP setup first.');
      const step = matchTotp(secretBox.decrypt(pending), code);
      if (step === undefined) throw createFieldError('code', 'The code is invalid.');
      return db.transaction(async (tx) => {
        // Only the pending secret that was checked is activated (a concurrent setup would change it).
        if (!(await users.activatePendingTotp(user.id, pending, step, tx))) {
          throw createConflictError('TOTP setup changed meanwhile. Start again.');
        }
        return { enabled: true as const, recovery_codes: await replaceRecoveryCodes(user.id, tx) };
      });
    },

    async disableTotp(user: UserRow) {
      await db.transaction(async (tx) => {
        const updated = await updateUser(
          user.id,
          {
            totpSecretEncrypted: null,
            totpPendingSecretEncrypted: null,
            totpEnabledAt: null,
            totpLastUsedStep: null,
          },
          tx,
        );
        await afterDisable(updated, tx);
      });
      return { enabled: false as const };
    },

    async enableEmail(user: UserRow) {
      await updateUser(user.id, { emailTwoFactorEnabled: true });
      return { email_enabled: true as const };
    },

    async disableEmail(user: UserRow) {
      await db.transaction(async (tx) => {
        const updated = await updateUser(user.id, { emailTwoFactorEnabled: false }, tx);
        await afterDisable(updated, tx);
      });
      return { email_enabled: false as const };
    },

    async regenerateRecoveryCodes(user: UserRow) {
      if (!isEnabled(user)) throw createConflictError('Turn on a second factor first.');
      return { recovery_codes: await db.transaction((tx) => replaceRecoveryCodes(user.id, tx)) };
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
