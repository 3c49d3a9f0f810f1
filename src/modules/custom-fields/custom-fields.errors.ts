// Errors of the custom field definitions module.
import { createFieldError, createNotFoundError } from '../../lib/errors.ts';

export const createCustomFieldNotFoundError = () => createNotFoundError('Custom field definition not found.');

/**
 * Names are compared case-insensitively: CSV headers are matched that way
 * (docs/api.md, Custom field definitions).
 */
export const createCustomFieldNameTakenError = () =>
  createFieldError('name', 'A custom field with this name already exists.');

/** Unknown ids and ids of a workspace the caller cannot reach get the same answer. */
export const createReorderForeignIdsError = () =>
  createFieldError('ids', 'The ids must all be custom field definitions of one workspace.');

export const createReorderIncompleteError = () =>
  createFieldError('ids', 'The ids must name every custom field definition of the workspace exactly once.');
