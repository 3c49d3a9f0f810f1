// Errors of the login flow's first step.
import { createUnauthenticatedError } from '../../lib/errors.ts';

export const createInvalidCredentialsError = () =>
  createUnauthenticatedError('These credentials do not match our records.');
