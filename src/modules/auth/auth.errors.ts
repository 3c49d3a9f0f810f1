// Errors of the accounts and login flows.
import { createUnauthenticatedError } from '../../lib/errors.ts';

export const createInvalidCredentialsError = () =>
  createUnauthenticatedError('These credentials do not match our records.');

export const createInvalidChallengeError = () =>
  createUnauthenticatedError('The login challenge is invalid or has expired.');

export const createInvalidCodeError = () => createUnauthenticatedError('The code is invalid.');
