// The second factor (decisions §4): TOTP, mailed one-time codes, recovery codes, and the
// login challenge that ties them to POST /login and POST /login/2fa. Secrets are encrypted
// with APP_KEY; codes and challenge tokens are stored as SHA-256 hashes only.
import { randomInt } from 'node:crypto';
import QRCode from 'qrcode';
import type { Database, Executor } from '../../db/client.ts';
import { randomToken, type SecretBox, safeEqual, sha256Hex } from '../../lib/crypto.ts';
import {
  AppError,
  createConflictError,
  createFieldError,
  createProviderUnavailableError,
  createRateLimitedError,
} from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/http.ts';
import type { FailureLimiter } from '../../lib/limiter.ts';
import { escapeHtml, type Mailer } from '../../lib/mail.ts';
import { createTotpSecret, matchTotp, totpUri } from '../../lib/totp.ts';
import type { NewUser, UsersRepository } from '../users/users.repository.ts';
import type { UserRow } from '../users/users.table.ts';
import type { TwoFactorMethod } from './auth.table.ts';
import type { TwoFactorRepository } from './two-factor.repository.ts';

export const CHALLENGE_TTL_MS = 10 * 60 * 1000;
export const EMAIL_CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_CHALLENGE_FAILURES = 5;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Location Finder';
/** Recovery code alphabet: no 0/o, 1/l/i, so codes survive being read aloud or written down. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const createInvalidChallengeError = () =>
  new AppError(401, 'unauthenticated', 'The login challenge is invalid or has expired.');
const createInvalidCodeError = () => new AppError(401, 'unauthenticated', 'The code is invalid.');

/** "ab3de-fgh7k": 10 characters of a 31-letter alphabet, about 50 bits. */
function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What the user typed, as stored: lower case, no spaces or dashes. */
const recoveryHash = (code: string) => sha256Hex(code.toLowerCase().replace(/[\s-]/g, ''));
/** A mailed code is hashed with its challenge, so one hash says nothing about another challenge. */
const emailCodeHash = (challengeTokenHash: string, code: string) =>
  sha256Hex(`${challengeTokenHash}:${code}`);

export interface TwoFactorChallenge {
  two_factor_required: true;
  challenge_token: string;
  methods: TwoFactorMethod[];
}

interface TwoFactorDeps {
  db: Database;
  users: UsersRepository;
  codes: TwoFactorRepository;
  secretBox: SecretBox;
  mailer: Mailer;
  /** The login throttle: wrong second-factor codes count as failed logins of the email and IP. */
  loginLimiter: FailureLimiter;
}

export function createTwoFactorService({ db, users, codes, secretBox, mailer, loginLimiter }: TwoFactorDeps) {
  const isEnabled = (user: UserRow) => user.totpEnabledAt !== null || user.emailTwoFactorEnabled;

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

  async function mailLoginCode(user: UserRow, code: string) {
    await mailer.send({
      to: user.email,
      // The code stays out of the subject: subjects are logged (src/lib/mail.ts).
      subject: 'Your sign-in code',
      text: `Hello ${user.name},\n\nYour sign-in code is ${code}. It expires in 10 minutes.\n\nIf you did not try to sign in, change your password.\n`,
      html: `<p>Hello ${escapeHtml(user.name)},</p><p>Your sign-in code is <strong>${code}</strong>. It expires in 10 minutes.</p><p>If you did not try to sign in, change your password.</p>`,
    });
  }

  return {
    isEnabled,

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

    /** POST /login with a second factor on: a challenge instead of a token; the code is mailed when email is on. */
    async startChallenge(user: UserRow, client: ClientInfo): Promise<TwoFactorChallenge> {
      const methods: TwoFactorMethod[] = [];
      if (user.totpEnabledAt !== null) methods.push('totp');
      if (user.emailTwoFactorEnabled) methods.push('email');
      if ((await codes.countUnusedRecoveryCodes(user.id)) > 0) methods.push('recovery_code');

      const token = randomToken();
      const tokenHash = sha256Hex(token);
      const code = user.emailTwoFactorEnabled ? String(randomInt(1_000_000)).padStart(6, '0') : undefined;
      const now = Date.now();
      const challenge = await codes.insertChallenge({
        userId: user.id,
        tokenHash,
        methods,
        emailCodeHash: code ? emailCodeHash(tokenHash, code) : null,
        emailCodeExpiresAt: code ? new Date(now + EMAIL_CODE_TTL_MS) : null,
        ip: client.ip ?? null,
        userAgent: client.userAgent?.slice(0, 512) ?? null,
        expiresAt: new Date(now + CHALLENGE_TTL_MS),
      });
      if (code) {
        try {
          await mailLoginCode(user, code);
        } catch {
          await codes.deleteChallenge(challenge.id);
          throw createProviderUnavailableError('The sign-in code could not be mailed. Try again later.');
        }
      }
      return { two_factor_required: true, challenge_token: token, methods };
    },

    /**
     * POST /login/2fa: the user whose challenge this code completes. The challenge row is
     * locked while the code is checked, so two requests with one challenge cannot both win;
     * a wrong code counts against the challenge (5 and it is dead) and the login throttle.
     */
    async completeChallenge(challengeToken: string, rawCode: string, client: ClientInfo): Promise<UserRow> {
      const code = rawCode.trim().replace(/\s+/g, '');
      const result = await db.transaction(async (tx) => {
        const now = new Date();
        const challenge = await codes.lockLiveChallenge(
          sha256Hex(challengeToken),
          now,
          MAX_CHALLENGE_FAILURES,
          tx,
        );
        if (!challenge) return { outcome: 'invalid' as const };
        const user = await users.findActiveById(challenge.userId, tx);
        if (!user) return { outcome: 'invalid' as const };

        const throttleKey = `${user.email.toLowerCase()}|${client.ip ?? 'unknown'}`;
        const retryAfter = await loginLimiter.blockedFor(throttleKey);
        if (retryAfter > 0) return { outcome: 'throttled' as const, retryAfter };

        let accepted = false;
        if (/^\d{6}$/.test(code)) {
          if (challenge.methods.includes('totp') && user.totpSecretEncrypted) {
            const step = matchTotp(secretBox.decrypt(user.totpSecretEncrypted), code, now.getTime());
            accepted = step !== undefined && (await users.claimTotpStep(user.id, step, tx));
          }
          if (
            !accepted &&
            challenge.methods.includes('email') &&
            challenge.emailCodeHash &&
            challenge.emailCodeExpiresAt &&
            challenge.emailCodeExpiresAt > now
          ) {
            accepted = safeEqual(emailCodeHash(challenge.tokenHash, code), challenge.emailCodeHash);
          }
        } else if (challenge.methods.includes('recovery_code') && code.length > 0) {
          accepted = await codes.consumeRecoveryCode(user.id, recoveryHash(code), tx);
        }

        if (!accepted) {
          await codes.recordWrongCode(challenge.id, tx);
          return { outcome: 'wrong' as const, throttleKey };
        }
        await codes.consumeChallenge(challenge.id, now, tx);
        await loginLimiter.reset(throttleKey);
        return { outcome: 'ok' as const, user };
      });

      switch (result.outcome) {
        case 'ok':
          return result.user;
        case 'throttled':
          throw createRateLimitedError(result.retryAfter);
        case 'wrong':
          await loginLimiter.recordFailure(result.throttleKey);
          throw createInvalidCodeError();
        default:
          throw createInvalidChallengeError();
      }
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
