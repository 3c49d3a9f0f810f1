// Errors of the invite flow (docs/api.md, Invites and mail).
import { createFieldError, createNotFoundError, createProviderUnavailableError } from '../../lib/errors.ts';

/** Unknown, expired and already used tokens answer alike, so a token's history is not revealed. */
export const createInviteNotFoundError = () => createNotFoundError('Invite not found or expired.');

export const createEmailHasAccountError = () =>
  createFieldError('email', 'This email already has an account.');

export const createInviteMailFailedError = () =>
  createProviderUnavailableError('The invitation email could not be sent. Try again later.');
