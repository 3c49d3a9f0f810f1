// Errors of the sets module.
import { createNotFoundError } from '../../lib/errors.ts';

export const createSetNotFoundError = () => createNotFoundError('Set not found.');
