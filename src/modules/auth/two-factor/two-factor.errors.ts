// Errors of the login challenge (the second factor's step of a login).
import { createUnauthenticatedError } from '../../../lib/errors.ts';

export const createInvalidChallengeError = () =>
  createUnauthenticatedError('The login challenge is invalid or has expired.');

export const createInvalidCodeError = () => createUnauthenticatedError('The code is invalid.');
