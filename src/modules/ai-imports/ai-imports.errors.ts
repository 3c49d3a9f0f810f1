// Errors of the AI import module.
import { createConflictError, createFieldError, createNotFoundError } from '../../lib/errors.ts';

/**
 * Another user's batch, a discarded one and a missing one answer alike
 * (docs/api.md, "AI import: routes and lifecycle").
 */
export const createAiImportBatchNotFoundError = () => createNotFoundError('AI import batch not found.');

export const createAiImportItemNotFoundError = () => createNotFoundError('AI import item not found.');

export const createFinderNotInWorkspaceError = () =>
  createFieldError('finder_id', 'The selected finder does not belong to this workspace.');

/** Approving needs an item without validation errors, else 422 (docs/api.md, AI import item status). */
export const createItemHasValidationErrorsError = () =>
  createFieldError('status', 'The item has validation errors and cannot be approved; fix its payload first.');

/**
 * Importing needs at least one valid pending or approved item, else 422
 * (docs/api.md, AI import batch status).
 */
export const createNoValidItemsError = () =>
  createFieldError(
    'items',
    'The batch has no valid item to import (pending review or approved, without validation errors).',
  );

export const createBatchNotDraftError = (status: string) =>
  createConflictError(`The batch is ${status}; only a draft batch can be changed or imported.`);
