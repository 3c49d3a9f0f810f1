// Errors of the finders module.
import { createNotFoundError, createValidationError } from '../../lib/errors.ts';

export const createFinderNotFoundError = () => createNotFoundError('Finder not found.');

export const createIntegrationNotFoundError = () =>
  createNotFoundError('The finder has no key for this provider.');

/** "7, 9" or "7, 9, ... and 12 more": a refused list can be long. */
function describeIds(ids: number[]): string {
  const shown = ids.slice(0, 10).join(', ');
  return ids.length > 10 ? `${shown} and ${ids.length - 10} more` : shown;
}

/** Unknown ids and ids of another workspace get the same message (docs/api.md, Finders). */
export const createForeignLocationsError = (ids: number[]) =>
  createValidationError({
    locations: [`These locations do not exist or are not in the finder's workspace: ${describeIds(ids)}.`],
  });
