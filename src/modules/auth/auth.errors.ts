// Errors of the accounts and login flows.
import { createUnauthenticatedError } from '../../lib/errors.ts';

export const createInvalidCredentialsError = () =>
  createUnauthenticatedError('These credentials do not match our records.');
