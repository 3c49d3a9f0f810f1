// /me/2fa/*: TOTP enrolment, email codes and recovery codes of the signed-in user (docs/api.md,
// "Second factor and the login challenge").

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerSecurity } from '../../lib/schemas.ts';

import { requireAuth } from './auth.plugin.ts';
import { totpConfirmBodySchema } from './auth.schemas.ts';

const recoveryCodesSchema = z.array(z.string()).length(10);

export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { twoFactor } = app.deps.services;
  app.addHook('onRequest', app.authenticate);
  const tags = ['account'];
  const security = bearerSecurity;

  app.post(
    '/me/2fa/totp/setup',
    {
      schema: {
        tags,
        security,
        summary: 'Start TOTP enrolment: a new secret, its otpauth URI and a QR code (SVG data URI)',
        response: {
          200: z.object({ secret: z.string(), otpauth_uri: z.string(), qr_code_uri: z.string() }),
        },
      },
    },
    async (request) => twoFactor.setupTotp(requireAuth(request).user),
  );

  app.post(
    '/me/2fa/totp/confirm',
    {
      schema: {
        tags,
        security,
        summary: 'Activate TOTP with a code from the app; returns ten recovery codes, once',
        body: totpConfirmBodySchema,
        response: {
          200: z.object({ enabled: z.literal(true), recovery_codes: recoveryCodesSchema }),
        },
      },
    },
    async (request) => twoFactor.confirmTotp(requireAuth(request).user, request.body.code),
  );

  app.delete(
    '/me/2fa/totp',
    {
      schema: {
        tags,
        security,
        summary: 'Turn TOTP off',
        response: { 200: z.object({ enabled: z.literal(false) }) },
      },
    },
    async (request) => twoFactor.disableTotp(requireAuth(request).user),
  );

  app.post(
    '/me/2fa/email/enable',
    {
      schema: {
        tags,
        security,
        summary: 'Turn on codes by email at login',
        response: { 200: z.object({ email_enabled: z.literal(true) }) },
      },
    },
    async (request) => twoFactor.enableEmail(requireAuth(request).user),
  );

  app.delete(
    '/me/2fa/email',
    {
      schema: {
        tags,
        security,
        summary: 'Turn off codes by email',
        response: { 200: z.object({ email_enabled: z.literal(false) }) },
      },
    },
    async (request) => twoFactor.disableEmail(requireAuth(request).user),
  );

  app.post(
    '/me/2fa/recovery-codes',
    {
      schema: {
        tags,
        security,
        summary: 'Replace the recovery codes (the old ones stop working); 409 without a second factor',
        response: { 200: z.object({ recovery_codes: recoveryCodesSchema }) },
      },
    },
    async (request) => twoFactor.regenerateRecoveryCodes(requireAuth(request).user),
  );
};
