// What a failing object store becomes: errors of storage's own, so a client hears that the file
// storage (not the database, not our code) failed, and the log says which operation. A store that
// does not answer (refused, reset, too slow) is 503 and worth retrying shortly; one that answers
// with an error is a failing upstream, 502 (docs/api.md, Frame: storage outage).
import { AppError } from '../errors.ts';

/** The store's operations, as logged: one per request the driver makes. */
export type StorageOperation = 'put' | 'get' | 'delete' | 'list' | 'delete_many';

export class StorageError extends AppError {
  constructor(
    statusCode: 502 | 503,
    message: string,
    /** The driver's request that failed. */
    readonly operation: StorageOperation,
    /** What the store or the network said: an error code (`ECONNREFUSED`, `InternalError`) or `timeout`; never a key. */
    readonly reason: string,
  ) {
    super(
      statusCode,
      statusCode === 503 ? 'service_unavailable' : 'provider_unavailable',
      message,
      undefined,
      statusCode === 503 ? { 'retry-after': '5' } : undefined,
    );
    this.name = 'StorageError';
  }
}

/** No answer in time: refused, reset, unreachable, or past its bound. */
export const createStorageUnavailableError = (operation: StorageOperation, reason: string) =>
  new StorageError(503, 'The file storage is temporarily unavailable. Try again shortly.', operation, reason);

/** The store answered, with an error (a 5xx after the client's retries, access denied, no bucket). */
export const createStorageFailedError = (operation: StorageOperation, reason: string) =>
  new StorageError(502, 'The file storage answered with an error. Try again later.', operation, reason);
