// Errors of the accounts and login flows.
import { createFieldError, createUnauthenticatedError } from '../../lib/errors.ts';

export const createInvalidCredentialsError = () =>
  createUnauthenticatedError('These credentials do not match our records.');

export const createEmailTakenError = () => createFieldError('email', 'The email has already been taken.');
