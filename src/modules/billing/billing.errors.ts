// Errors of the billing module (docs/api.md, Billing).
import {
  AppError,
  createBadRequestError,
  createConflictError,
  createFieldError,
  createNotConfiguredError,
  createNotFoundError,
  createProviderUnavailableError,
  createUnauthenticatedError,
} from '../../lib/errors.ts';

export const createBillingNotConfiguredError = () =>
  createNotConfiguredError('Billing is not configured on this server.');

/** Paddle did not answer in time, could not be reached, or answered with an error. */
export const createPaddleUnavailableError = () =>
  createProviderUnavailableError('The payment provider is unavailable. Try again later.');

/** Paddle created the transaction but gave no checkout link (no default payment link is set at Paddle). */
export const createCheckoutUnavailableError = () =>
  createProviderUnavailableError('The payment provider did not return a checkout link.');

export const createPriceNotAvailableError = () =>
  createFieldError('price_id', 'The selected price_id is invalid.');

/** A second checkout would start a second subscription, billed next to the first. */
export const createSubscriptionExistsError = () =>
  createConflictError('There is already a subscription. Change or cancel it in the customer portal.');

/** The portal needs a Paddle customer, which the first checkout creates. */
export const createNoBillingAccountError = () =>
  createConflictError('There is no billing account yet. Start a checkout first.');

/**
 * Paddle already has a customer with the user's email that was not created for this user
 * (emails are not verified here, so that customer is not handed over).
 */
export const createCustomerTakenError = () =>
  createConflictError('The email is already used by another billing account at the payment provider.');

export const createInvoiceNotFoundError = () => createNotFoundError('Invoice not found.');

/** Missing, malformed, forged or stale Paddle-Signature: one answer for all. */
export const createInvalidSignatureError = () => createUnauthenticatedError('Invalid webhook signature.');

/** A correctly signed body that is not a Paddle event (no event_id, type or occurred_at). */
export const createUnreadableEventError = () =>
  new AppError(400, 'bad_request', 'The webhook body is not a Paddle event.');

/** A signed body nesting deeper than any Paddle event does (src/lib/json.ts). */
export const createEventTooDeepError = (depth: number) =>
  createBadRequestError(`The webhook body may not nest arrays and objects more than ${depth} levels deep.`);

/** A signed body holding a string PostgreSQL cannot store in the event's jsonb. */
export const createUnstorableEventError = () =>
  createBadRequestError(
    'The webhook body contains characters that cannot be stored (a NUL or an unpaired UTF-16 surrogate).',
  );

/** An event we act on whose data lacks a field we read or has it of the wrong type. */
export const createInvalidEventDataError = (field: string) =>
  createBadRequestError(`The webhook event's ${field} is missing or invalid.`);
