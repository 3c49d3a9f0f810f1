// Bearer tokens (spec §5.1): HS256 JWTs with iss, iat, exp, nbf, sub, jti and the custom claims
// role, subscription_status and subscription_tier. Signing lives here (services issue tokens);
// verification is @fastify/jwt in the auth plugin, configured from the same settings.
import { randomUUID } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import type { Config } from '../../config.ts';
import type { SubscriptionStatus, SubscriptionTier, UserRole } from '../users/users.table.ts';

export interface TokenClaims {
  iss: string;
  iat: number;
  nbf: number;
  exp: number;
  sub: string;
  jti: string;
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
