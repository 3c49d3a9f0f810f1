// Bodies and responses of register, login, me and logout.

import { z } from 'zod';
import { nameSchema } from '../../lib/schemas.ts';

import {
  emailSchema,
  passwordConfirmationSchema,
  passwordSchema,
  passwordsMatch,
  userPayloadSchema,
} from '../users/users.schemas.ts';

export const registerBodySchema = z
  .object({
    name: nameSchema,
    email: emailSchema,
    password: passwordSchema,
    password_confirmation: passwordConfirmationSchema,
  })
  .refine(...passwordsMatch);
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const loginBodySchema = z.object({
  email: z.string({ error: 'The email field is required.' }).trim().min(1, 'The email field is required.'),
  password: z.string({ error: 'The password field is required.' }).min(1, 'The password field is required.'),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const loginTwoFactorBodySchema = z.object({
  challenge_token: z
    .string({ error: 'The challenge token field is required.' })
    .min(1, 'The challenge token field is required.')
    .max(200, 'The challenge token is invalid.'),
  code: z
    .string({ error: 'The code field is required.' })
    .trim()
    .min(1, 'The code field is required.')
    .max(64),
});
export type LoginTwoFactorBody = z.infer<typeof loginTwoFactorBodySchema>;

/** POST /me/2fa/totp/confirm. */
export const totpConfirmBodySchema = z.object({
  code: z
    .string({ error: 'The code field is required.' })
    .trim()
    .min(1, 'The code field is required.')
    .max(64),
});

export const tokenResponseSchema = z.object({
  token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  user: userPayloadSchema,
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const twoFactorChallengeResponseSchema = z.object({
  two_factor_required: z.literal(true),
  challenge_token: z.string(),
  methods: z.array(z.string()),
});

export const loginResponseSchema = z.union([tokenResponseSchema, twoFactorChallengeResponseSchema]);
