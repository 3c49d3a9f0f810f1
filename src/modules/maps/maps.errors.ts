// Errors of the maps module (docs/api.md, Maps). A map that is missing and a map the caller does
// not own answer the same 404, and map create/update report validation failures as 400.
import { createNotFoundError, createValidationError, type FieldErrors } from '../../lib/errors.ts';

export const MAP_NOT_FOUND_MESSAGE = 'Map not found or unauthorized access';

export const createMapNotFoundError = () => createNotFoundError(MAP_NOT_FOUND_MESSAGE);

export const createMapValidationError = (errors: FieldErrors) => createValidationError(errors, 400);
