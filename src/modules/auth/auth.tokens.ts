// Bearer tokens (docs/api.md, Authentication): HS256 JWTs with iss, iat, exp, nbf, sub, jti and the
// custom claims role, subscription_status and subscription_tier. Signing lives here (services issue
// tokens); verification is @fastify/jwt in the auth plugin, configured from the same settings.
import { randomUUID } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { SubscriptionStatus, SubscriptionTier, UserRole } from '../users/users.table.ts';

/**
 * The registered claims every token must carry, each of its type
 * (docs/api.md, Tokens and sessions): a token signed with our key but missing one, or with a `jti`
 * that is not a UUID (the sessions column is one) or a `sub` that is not a user id, is refused as
 * unauthenticated before any query.
 */
export const registeredClaimsSchema = z.object({
  iss: z.string().min(1),
  iat: z.int().nonnegative(),
  nbf: z.int().nonnegative(),
  exp: z.int().positive(),
  sub: z.string().regex(/^[1-9][0-9]{0,9}$/),
  jti: z.uuid(),
});

export const REQUIRED_CLAIMS = Object.keys(registeredClaimsSchema.shape);

export type RegisteredClaims = z.infer<typeof registeredClaimsSchema>;

export interface TokenClaims extends RegisteredClaims {
  role: UserRole;
  subscription_status: SubscriptionStatus;
  subscription_tier: SubscriptionTier;
}

export interface IssuedToken {
  token: string;
  jti: string;
  expiresAt: Date;
  /** Seconds, as `expires_in` in login and register responses. */
  expiresIn: number;
}

export interface TokenSubject {
  id: number;
  role: UserRole;
  subscriptionStatus: SubscriptionStatus;
  subscriptionTier: SubscriptionTier;
}

export const JWT_ALGORITHM = 'HS256';

export function createTokenIssuer(config: Config['jwt']) {
  const sign = createSigner({ key: config.secret, algorithm: JWT_ALGORITHM });
  const lifetimeSeconds = config.ttlMinutes * 60;

  return function issue(subject: TokenSubject, now = new Date()): IssuedToken {
    const iat = Math.floor(now.getTime() / 1000);
    const claims: TokenClaims = {
      iss: config.issuer,
      iat,
      nbf: iat,
      exp: iat + lifetimeSeconds,
      sub: String(subject.id),
      jti: randomUUID(),
      role: subject.role,
      subscription_status: subject.subscriptionStatus,
      subscription_tier: subject.subscriptionTier,
    };
    return {
      token: sign(claims),
      jti: claims.jti,
      expiresAt: new Date(claims.exp * 1000),
      expiresIn: lifetimeSeconds,
    };
  };
}

export type TokenIssuer = ReturnType<typeof createTokenIssuer>;
