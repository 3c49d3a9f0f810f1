// What GET /mapping/autocomplete and GET /mapping/places answer (docs/api.md, Autocomplete and
// places routes), made here so the service never builds a reply.
import { createFieldError, createNotFoundError, createProviderUnavailableError } from '../../lib/errors.ts';

export const createFinderKeyNotFoundError = () => createNotFoundError('Finder not found.');

export const createPlaceNotFoundResponseError = () => createNotFoundError('Place not found.');

export const createPlaceProviderUnavailableError = () =>
  createProviderUnavailableError('The place search provider is unavailable. Try again later.');

/** A `provider` the finder does not search with: its place ids cannot come from this finder. */
export const createProviderNotAllowedError = (allowed: readonly string[]) =>
  createFieldError('provider', `The provider must be one of: ${allowed.join(', ')}.`);
