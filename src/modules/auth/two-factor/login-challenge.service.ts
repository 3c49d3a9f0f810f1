// The login challenge (docs/api.md, "Second factor and the login challenge"): POST /login with a
// second factor on answers a challenge instead of a token, and POST /login/2fa completes it with a
// TOTP code, the mailed code or a recovery code. Challenge tokens and codes are stored as SHA-256
// hashes only.

import type { Database } from '../../../db/client.ts';
import { randomToken, type SecretBox, safeEqual, sha256Hex } from '../../../lib/crypto.ts';
import { createProviderUnavailableError } from '../../../lib/errors.ts';
import type { ClientInfo } from '../../../lib/http.ts';
import type { FailureLimiter } from '../../../lib/limiter.ts';
import type { Mailer } from '../../../lib/mail.ts';
import { matchTotp } from '../../../lib/totp.ts';
import type { UsersRepository } from '../../users/users.repository.ts';
import type { UserRow } from '../../users/users.table.ts';
import { emailCodeHash, newEmailCode, recoveryHash } from './two-factor.codes.ts';
import { createInvalidChallengeError, createInvalidCodeError } from './two-factor.errors.ts';
import { loginCodeMail } from './two-factor.mail.ts';
import type { TwoFactorRepository } from './two-factor.repository.ts';
import type { TwoFactorMethod } from './two-factor.table.ts';

export const CHALLENGE_TTL_MS = 10 * 60 * 1000;
export const EMAIL_CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_CHALLENGE_FAILURES = 5;

export interface TwoFactorChallenge {
  two_factor_required: true;
  challenge_token: string;
  methods: TwoFactorMethod[];
}

interface LoginChallengeDeps {
  db: Database;
  users: UsersRepository;
  codes: TwoFactorRepository;
  secretBox: SecretBox;
  mailer: Mailer;
  /** Wrong second-factor codes per user; a right code gives back only its own attempt. */
  codeLimiter: FailureLimiter;
}

export function createLoginChallengeService({
  db,
  users,
  codes,
  secretBox,
  mailer,
  codeLimiter,
}: LoginChallengeDeps) {
  return {
    /** POST /login with a second factor on: a challenge instead of a token; the code is mailed when email is on. */
    async startChallenge(user: UserRow, client: ClientInfo): Promise<TwoFactorChallenge> {
      const methods: TwoFactorMethod[] = [];
      if (user.totpEnabledAt !== null) methods.push('totp');
      if (user.emailTwoFactorEnabled) methods.push('email');
      if ((await codes.countUnusedRecoveryCodes(user.id)) > 0) methods.push('recovery_code');

      const token = randomToken();
      const tokenHash = sha256Hex(token);
      const code = user.emailTwoFactorEnabled ? newEmailCode() : undefined;
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
          await mailer.send(loginCodeMail(user, code));
        } catch {
          await codes.deleteChallenge(challenge.id);
          throw createProviderUnavailableError('The sign-in code could not be mailed. Try again later.');
        }
      }
      return { two_factor_required: true, challenge_token: token, methods };
    },

    /**
     * POST /login/2fa: the user whose challenge this code completes. The challenge row is
     * locked while the code is checked, so two requests with one challenge cannot both win.
     * Before a code is checked it is counted against its user (the second-factor limiter: not
     * reset by a right password, and counted before the check, so a burst over many challenges
     * gets no more than its 5 codes checked); a wrong code also counts against the challenge
     * (5 and it is dead).
     */
    async completeChallenge(challengeToken: string, rawCode: string): Promise<UserRow> {
      const code = rawCode.trim().replace(/\s+/g, '');
      const result = await db.transaction(async (tx) => {
        const now = new Date();
        const challenge = await codes.lockLiveChallenge(
          sha256Hex(challengeToken),
          now,
          MAX_CHALLENGE_FAILURES,
          tx,
        );
        if (!challenge) return undefined;
        const user = await users.findActiveById(challenge.userId, tx);
        if (!user) return undefined;

        // Throws 429 when the user's wrong codes are used up; nothing is written then.
        const attempt = await codeLimiter.attempt(String(user.id));
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
          return { accepted: false as const };
        }
        await codes.consumeChallenge(challenge.id, now, tx);
        return { accepted: true as const, user, attempt };
      });

      if (!result) throw createInvalidChallengeError();
      if (!result.accepted) throw createInvalidCodeError();
      // After the commit: a right code that failed to be recorded still counts as an attempt.
      await result.attempt.succeeded();
      return result.user;
    },
  };
}

export type LoginChallengeService = ReturnType<typeof createLoginChallengeService>;
