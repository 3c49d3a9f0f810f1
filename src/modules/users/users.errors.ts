// Errors about user accounts, shared by register, invites, PUT /me and the admin routes.
import { createConflictError, createFieldError, createNotFoundError } from '../../lib/errors.ts';

/** Emails are unique among users not deleted, compared case-insensitively (docs/api.md, Accounts). */
export const createEmailTakenError = () => createFieldError('email', 'The email has already been taken.');

export const createUserNotFoundError = () => createNotFoundError('User not found.');

export const createLastAdminError = (action: 'demoted' | 'deleted') =>
  createConflictError(`The last admin cannot be ${action}.`);
