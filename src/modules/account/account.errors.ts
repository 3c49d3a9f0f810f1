// Errors of the signed-in user's own account (PUT /me, DELETE /me).
import { createFieldError } from '../../lib/errors.ts';

export const createCurrentPasswordRequiredError = () =>
  createFieldError('current_password', 'The current password is required to change the email or password.');

export const createCurrentPasswordIncorrectError = () =>
  createFieldError('current_password', 'The current password is incorrect.');

export const createPasswordIncorrectError = () => createFieldError('password', 'The password is incorrect.');
