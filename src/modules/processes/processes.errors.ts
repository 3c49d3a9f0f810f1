// Errors of the processes module.
import { createConflictError, createNotFoundError } from '../../lib/errors.ts';
import type { ProcessStatus } from './processes.table.ts';

/**
 * Another user's process answers exactly like a missing one
 * (docs/api.md, Processes and the event stream).
 */
export const createProcessNotFoundError = () => createNotFoundError('Process not found.');

export const createProcessNotRetryableError = (status: ProcessStatus) =>
  createConflictError(`Only a failed process can be retried; this one is ${status}.`);

/**
 * A geocoding process is not retried by id: the workspace's geocoding is started again (at most
 * one queued or running per workspace; docs/api.md, Geocoding).
 */
export const createProcessTypeNotRetryableError = (type: string | null) =>
  createConflictError(
    type === 'geocoding'
      ? "A geocoding process is not retried: start the workspace's geocoding again (POST /workspaces/{id}/geocoding)."
      : 'This kind of process runs inside its request and cannot be retried.',
  );

export const createProcessNotCancellableError = (status: ProcessStatus) =>
  createConflictError(`Only a pending or running process can be cancelled; this one is ${status}.`);
