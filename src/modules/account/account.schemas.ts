// Bodies of PUT /me and DELETE /me (docs/api.md, "Account: sessions, PUT /me, DELETE /me").
// Field rules are register's.

import { z } from 'zod';
import { nameSchema } from '../../lib/schemas.ts';

import {
  emailSchema,
  passwordConfirmationSchema,
  passwordSchema,
  passwordsMatch,
} from '../users/users.schemas.ts';

export const updateMeBodySchema = z
  .object({
    name: nameSchema.optional(),
    email: emailSchema.optional(),
    current_password: z.string({ error: 'The current password must be a string.' }).optional(),
    password: passwordSchema.optional(),
    password_confirmation: passwordConfirmationSchema.optional(),
  })
  .refine(...passwordsMatch);
export type UpdateMeBody = z.infer<typeof updateMeBodySchema>;

export const ACCOUNT_DELETION_CONFIRMATION = 'DELETE MY ACCOUNT';

export const deleteMeBodySchema = z.object({
  password: z.string({ error: 'The password field is required.' }).min(1, 'The password field is required.'),
  confirmation: z.literal(ACCOUNT_DELETION_CONFIRMATION, {
    error: (issue) =>
      issue.input === undefined
        ? 'The confirmation field is required.'
        : `The confirmation must be exactly '${ACCOUNT_DELETION_CONFIRMATION}'.`,
  }),
});
export type DeleteMeBody = z.infer<typeof deleteMeBodySchema>;

export const accountDeletedSchema = z.object({ message: z.string() });
