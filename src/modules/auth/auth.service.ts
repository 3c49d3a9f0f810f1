// Accounts and tokens: register, login (with throttling), logout, and the `auth:api` +
// `auth_session` checks every AUTH request passes. A token is valid only while its session
// row (keyed by jti) exists, is not revoked and has not expired; revocation lives in
// PostgreSQL, so it survives restarts.

import type { Database, Executor, Transaction } from '../../db/client.ts';
import { hashPassword, verifyPassword } from '../../lib/crypto.ts';
import { createUnauthenticatedError } from '../../lib/errors.ts';
import { type ClientInfo, throttledAddress } from '../../lib/http.ts';
import type { FailureLimiter } from '../../lib/limiter.ts';
import { createEmailTakenError } from '../users/users.errors.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import { toUserPayload } from '../users/users.schemas.ts';
import type { UserRow } from '../users/users.table.ts';
import { createInvalidCredentialsError } from './auth.errors.ts';
import type { LoginBody, LoginTwoFactorBody, RegisterBody, TokenResponse } from './auth.schemas.ts';
import type { IssuedToken, RegisteredClaims, TokenIssuer } from './auth.tokens.ts';
import type { SessionsRepository } from './sessions/sessions.repository.ts';
import type { AuthContext } from './sessions/sessions.table.ts';
import type { LoginChallengeService, TwoFactorChallenge } from './two-factor/login-challenge.service.ts';
import { hasSecondFactor } from './two-factor/two-factor.service.ts';

export const TRIAL_DAYS = 14;

/**
 * What every self-registered account starts with, by POST /register or an invite (docs/api.md,
 * Subscription status and tier).
 */
export const newAccountDefaults = (now = new Date()) => ({
  role: 'user' as const,
  subscriptionStatus: 'trialing' as const,
  subscriptionTier: 'free' as const,
  trialEndsAt: new Date(now.getTime() + TRIAL_DAYS * 24 * 3600 * 1000),
});

/** `last_used_at` is refreshed at most this often, so most requests write nothing. */
const TOUCH_INTERVAL_MS = 60_000;

interface AuthServiceDeps {
  db: Database;
  users: UsersRepository;
  sessions: SessionsRepository;
  /**
   * Creates a new account's first workspace, owned by it, in the registration's transaction
   * (the workspaces module's, given by src/deps.ts: workspaces sit above auth).
   */
  createFirstWorkspace: (name: string, ownerId: number, tx: Transaction) => Promise<unknown>;
  issueToken: TokenIssuer;
  /** Failed logins per email and IP (5 a minute); a right password clears them. */
  loginLimiter: FailureLimiter;
  /** Failed logins per client address across every account (50 in 10 minutes); a right one counts for nothing. */
  loginAddressLimiter: FailureLimiter;
  challenges: LoginChallengeService;
}

// A real argon2id hash of a random string: verifying against it when the email is unknown
// keeps the response time of "no such user" equal to "wrong password".
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => {
  dummyHash ??= hashPassword(`no-such-user-${Math.random()}`);
  return dummyHash;
};

export function createAuthService(deps: AuthServiceDeps) {
  const {
    db,
    users,
    sessions,
    createFirstWorkspace,
    issueToken,
    loginLimiter,
    loginAddressLimiter,
    challenges,
  } = deps;

  /** Signs a token and records its session, inside the caller's transaction when given. */
  async function startSession(user: UserRow, client: ClientInfo, tx: Executor = db): Promise<IssuedToken> {
    const issued = issueToken(user);
    await sessions.insert(
      {
        userId: user.id,
        jti: issued.jti,
        ip: client.ip ?? null,
        userAgent: client.userAgent?.slice(0, 512) ?? null,
        expiresAt: issued.expiresAt,
      },
      tx,
    );
    return issued;
  }

  const tokenResponse = (issued: IssuedToken, user: UserRow): TokenResponse => ({
    token: issued.token,
    token_type: 'Bearer',
    expires_in: issued.expiresIn,
    user: toUserPayload(user),
  });

  /**
   * Password check, throttled twice: per email and IP (5 failures a minute; a right password
   * clears them) and per client address across every account (50 failures in 10 minutes,
   * password spraying; a right password gives back its own attempt and clears nothing). Each
   * attempt is counted before the password is verified, in the step that decides it may go
   * ahead, so a burst gets no more verified than the limits allow and an address over its
   * failures gets none checked, a right password included. The email's limit is asked first:
   * what it refuses costs the address nothing; an attempt the address refuses still counts for
   * its email and IP (that pair is the refused address's own). Returns the user; the caller
   * decides between a token and a challenge.
   */
  async function verifyCredentials(body: LoginBody, client: ClientInfo): Promise<UserRow> {
    const forAccount = await loginLimiter.attempt(`${body.email.toLowerCase()}|${client.ip ?? 'unknown'}`);
    const fromAddress = await loginAddressLimiter.attempt(throttledAddress(client.ip));
    const user = await users.findActiveByEmail(body.email);
    const valid = await verifyPassword(user?.passwordHash ?? (await getDummyHash()), body.password);
    if (!user || !valid) throw createInvalidCredentialsError();
    await forAccount.succeeded();
    await fromAddress.succeeded();
    return user;
  }

  return {
    startSession,
    verifyCredentials,
    tokenResponse,

    /** Open registration (docs/api.md, Accounts): a trialing free user with a first workspace they own. */
    async register(body: RegisterBody, client: ClientInfo): Promise<TokenResponse> {
      const passwordHash = await hashPassword(body.password);
      // Two registrations racing for one email: the unique index decides, and the error handler
      // answers its violation with the same 422 (src/unique-constraints.ts).
      return db.transaction(async (tx) => {
        if (await users.findActiveByEmail(body.email, tx)) throw createEmailTakenError();
        const user = await users.insert(
          {
            name: body.name,
            email: body.email,
            passwordHash,
            ...newAccountDefaults(),
          },
          tx,
        );
        await createFirstWorkspace(`${body.name}'s workspace`, user.id, tx);
        return tokenResponse(await startSession(user, client, tx), user);
      });
    },

    /**
     * A token, or a challenge when the user has a second factor on (docs/api.md,
     * "Second factor and the login challenge").
     */
    async login(body: LoginBody, client: ClientInfo): Promise<TokenResponse | TwoFactorChallenge> {
      const user = await verifyCredentials(body, client);
      if (hasSecondFactor(user)) return challenges.startChallenge(user, client);
      return tokenResponse(await startSession(user, client), user);
    },

    /** POST /login/2fa: a TOTP code, the mailed code or a recovery code completes the challenge. */
    async completeLogin(body: LoginTwoFactorBody, client: ClientInfo): Promise<TokenResponse> {
      const user = await challenges.completeChallenge(body.challenge_token, body.code);
      return tokenResponse(await startSession(user, client), user);
    },

    async logout(auth: AuthContext): Promise<void> {
      await sessions.revoke(auth.session.id, new Date());
    },

    /** The `auth_session` check, given claims the auth plugin has already verified. */
    async authenticate(
      claims: Pick<RegisteredClaims, 'jti' | 'sub'>,
      now = new Date(),
    ): Promise<AuthContext> {
      const found = await sessions.findWithUserByJti(claims.jti);
      if (
        !found ||
        found.session.revokedAt !== null ||
        found.session.expiresAt <= now ||
        found.user.deletedAt !== null ||
        String(found.user.id) !== claims.sub
      ) {
        throw createUnauthenticatedError();
      }
      if (now.getTime() - found.session.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS) {
        await sessions.touch(found.session.id, now);
        found.session.lastUsedAt = now;
      }
      return found;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
