// Errors of the accounts and login flows.
import { AppError, createFieldError, createUnauthenticatedError } from '../../lib/errors.ts';

export const createInvalidCredentialsError = () =>
  createUnauthenticatedError('These credentials do not match our records.');

export const createEmailTakenError = () => createFieldError('email', 'The email has already been taken.');

export const createSessionRevokedError = () => createUnauthenticatedError('Unauthenticated.');

export const createTooManyLoginAttemptsError = (retryAfterSeconds: number) =>
  new AppError(429, 'rate_limited', 'Too many requests.', undefined, {
    'retry-after': String(retryAfterSeconds),
  });
