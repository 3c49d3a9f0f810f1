// Bodies and responses of POST /invite/send and GET/POST /register/{token}.

import { z } from 'zod';
import { bodyIdSchema, nameSchema } from '../../lib/schemas.ts';

import {
  emailSchema,
  passwordConfirmationSchema,
  passwordSchema,
  passwordsMatch,
} from '../users/users.schemas.ts';
import type { InviteRow } from './invites.table.ts';

export const inviteBodySchema = z.object({
  email: emailSchema,
  workspace_id: bodyIdSchema('workspace_id'),
});
export type InviteBody = z.infer<typeof inviteBodySchema>;

export const inviteSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  workspace_id: z.number().int(),
  expires_at: z.string(),
});
export type InvitePayload = z.infer<typeof inviteSchema>;

export const toInvitePayload = (row: InviteRow): InvitePayload => ({
  id: row.id,
  email: row.email,
  workspace_id: row.workspaceId,
  expires_at: row.expiresAt.toISOString(),
});

/**
 * Any string is looked up (a malformed token is simply unknown: 404). Fastify answers 414 to a
 * path parameter over its 100-character limit; tokens are 43.
 */
export const inviteTokenParamsSchema = z.object({ token: z.string().min(1).max(100) });

export const invitePreviewSchema = z.object({ email: z.string(), workspace_name: z.string() });
export type InvitePreview = z.infer<typeof invitePreviewSchema>;

/** POST /register/{token}: the email comes from the invite, so it is not asked for. */
export const inviteRegisterBodySchema = z
  .object({
    name: nameSchema,
    password: passwordSchema,
    password_confirmation: passwordConfirmationSchema,
  })
  .refine(...passwordsMatch);
export type InviteRegisterBody = z.infer<typeof inviteRegisterBodySchema>;
