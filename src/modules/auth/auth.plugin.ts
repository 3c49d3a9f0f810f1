// The three checks of AUTH endpoints (docs/api.md, Conventions: Access): `auth:api` (a valid HS256
// bearer token), `auth_session` (its session row is live; docs/api.md, Tokens and sessions) and
// `audit` (one audit row per state-changing request). Route plugins opt in with
// `app.addHook('onRequest', app.authenticate)`.

import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config/config.ts';
import { createUnauthenticatedError } from '../../lib/errors.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { AuthService } from './auth.service.ts';
import {
  JWT_ALGORITHM,
  REQUIRED_CLAIMS,
  type RegisteredClaims,
  registeredClaimsSchema,
  type TokenClaims,
} from './auth.tokens.ts';
import type { AuthContext } from './sessions/sessions.table.ts';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: TokenClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    /** Set by `authenticate`: the live session and its user, fresh from the database. */
    auth: AuthContext | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface AuthPluginOptions {
  jwt: Config['jwt'];
  authService: AuthService;
  auditService: AuditService;
}

/** The authenticated context of a request that passed `authenticate`. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw createUnauthenticatedError();
  return request.auth;
}

export const authPlugin = fp<AuthPluginOptions>(
  async (app: FastifyInstance, { jwt, authService, auditService }) => {
    await app.register(fastifyJwt, {
      secret: jwt.secret,
      sign: { algorithm: JWT_ALGORITHM, iss: jwt.issuer },
      // Presence here; the types and formats (a UUID jti, a numeric sub) by the schema below.
      verify: { algorithms: [JWT_ALGORITHM], allowedIss: jwt.issuer, requiredClaims: REQUIRED_CLAIMS },
    });

    app.decorateRequest('auth', null);

    app.decorate('authenticate', async (request: FastifyRequest) => {
      let claims: RegisteredClaims;
      try {
        claims = registeredClaimsSchema.parse(await request.jwtVerify<TokenClaims>());
      } catch {
        throw createUnauthenticatedError();
      }
      request.auth = await authService.authenticate(claims);
    });

    // `audit`: written before the response leaves, so the row exists when the client sees it.
    // The change itself is already committed; a failed audit write is logged, not turned into
    // an error answer for a request that succeeded.
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.auth && !SAFE_METHODS.has(request.method)) {
        try {
          await auditService.record({
            userId: request.auth.user.id,
            method: request.method,
            route: request.routeOptions.url ?? request.url,
            path: request.url.split('?')[0] ?? request.url,
            status: reply.statusCode,
            ip: request.ip,
            userAgent: request.headers['user-agent'],
            requestId: request.id,
          });
        } catch (error) {
          request.log.error({ err: error }, 'audit row could not be written');
        }
      }
      return payload;
    });
  },
  { name: 'auth' },
);
