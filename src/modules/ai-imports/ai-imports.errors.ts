// Errors of the AI import module.
import { createConflictError, createFieldError, createNotFoundError } from '../../lib/errors.ts';

/** Another user's batch, a discarded one and a missing one answer alike (decisions §2). */
export const createAiImportBatchNotFoundError = () => createNotFoundError('AI import batch not found.');

export const createAiImportItemNotFoundError = () => createNotFoundError('AI import item not found.');

export const createFinderNotInWorkspaceError = () =>
  createFieldError('finder_id', 'The selected finder does not belong to this workspace.');

/** Spec §3: approving needs an item without validation errors (422). */
export const createItemHasValidationErrorsError = () =>
  createFieldError('status', 'The item has validation errors and cannot be approved; fix its payload first.');

/** Spec §3: importing needs at least one valid pending or approved item (422). */
export const createNoValidItemsError = () =>
  createFieldError(
    'items',
    'The batch has no valid item to import (pending review or approved, without validation errors).',
  );

export const createBatchNotDraftError = (status: string) =>
  createConflictError(`The batch is ${status}; only a draft batch can be changed or imported.`);
