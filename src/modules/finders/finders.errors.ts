// Errors of the finders module.
import { createNotFoundError } from '../../lib/errors.ts';

export const createFinderNotFoundError = () => createNotFoundError('Finder not found.');
