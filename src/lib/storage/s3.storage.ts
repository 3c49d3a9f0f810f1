// The `s3` driver: any S3-compatible store through @aws-sdk/client-s3, keeping each object's
// Content-Type and Cache-Control as object metadata.
//
// Every request is bounded, so a store that is gone or frozen costs a client seconds, not the
// SDK's unbounded wait: a connection gets CONNECT_TIMEOUT_MS, a socket that carries nothing either
// way for IDLE_TIMEOUT_MS is given up (a frozen store, also mid-upload), the SDK tries
// MAX_ATTEMPTS times, and one call, attempts and backoff included, ends at its deadline
// (S3_TIMEOUT_MS, plus time for a large body to travel at MIN_UPLOAD_BYTES_PER_SECOND). Failures
// leave as StorageErrors (errors.ts): 503 when the store does not answer, 502 when it answers an
// error (docs/api.md, Frame: storage outage).
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { Config } from '../../config/config.ts';
import {
  createStorageFailedError,
  createStorageUnavailableError,
  StorageError,
  type StorageOperation,
} from './errors.ts';
import { assertStorageKey, folderOf, publicUrlFor } from './keys.ts';
import type { Storage } from './types.ts';

/** As for PostgreSQL: a store that cannot be reached in 3 s is down for this request. */
export const CONNECT_TIMEOUT_MS = 3_000;
/**
 * Nothing sent or received for this long: the store is frozen. S3 answers a PutObject within
 * a second of its last byte; slow links still move bytes.
 */
export const IDLE_TIMEOUT_MS = 5_000;
/** The SDK's default, written down: a 5xx or a dropped connection is tried twice more. */
export const MAX_ATTEMPTS = 3;
/**
 * The slowest upload a put's deadline allows for (1 MiB/s, about 8 Mbit/s): a 5 MB image gets
 * 5 s more than a small call, the 40 MB payload of a finder with 100,000 locations 40 s more.
 */
export const MIN_UPLOAD_BYTES_PER_SECOND = 1024 * 1024;

export interface S3StorageOptions {
  /** Keys per ListObjectsV2/DeleteObjects page (S3's maximum is 1000). */
  pageSize?: number;
}

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * The StorageError for what the SDK threw. An HTTP status means the store answered (after the
 * SDK's retries for a 5xx): 502 with the store's error code. Anything else never got an answer:
 * 503 with the network's code (`ECONNREFUSED`, `TimeoutError` for the connect and idle bounds)
 * or `timeout` for the call's deadline.
 */
function storageErrorOf(operation: StorageOperation, error: unknown, deadline: AbortSignal): StorageError {
  if (error instanceof StorageError) return error;
  const e = (error ?? {}) as { name?: string; code?: unknown; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  if (status !== undefined && status >= 400) {
    return createStorageFailedError(operation, `${e.name ?? 'Error'} (HTTP ${status})`);
  }
  if (deadline.aborted) return createStorageUnavailableError(operation, 'timeout');
  return createStorageUnavailableError(operation, typeof e.code === 'string' ? e.code : (e.name ?? 'Error'));
}

/** Rejects when the signal aborts, so no caller waits past the deadline whatever the SDK does. */
function abortion(signal: AbortSignal): { promise: Promise<never>; dispose(): void } {
  let onAbort = () => {};
  const promise = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => {});
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

export function createS3Storage(
  config: Pick<Config['storage'], 's3' | 'cdnUrl'>,
  options: S3StorageOptions = {},
): Storage {
  const { bucket, region, endpoint, accessKeyId, secretAccessKey, forcePathStyle, timeoutMs } = config.s3;
  if (!bucket) throw new Error('S3 storage needs a bucket (S3_BUCKET)');
  const pageSize = Math.min(1000, Math.max(1, options.pageSize ?? 1000));
  const client = new S3Client({
    region,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle,
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    // Plain (not aws-chunked) bodies: every S3-compatible store accepts them (dependencies.md).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: MAX_ATTEMPTS,
    // The deadline of each call is its abort signal (`bounded`); these bound each attempt.
    requestHandler: {
      connectionTimeout: Math.min(CONNECT_TIMEOUT_MS, timeoutMs),
      socketTimeout: Math.min(IDLE_TIMEOUT_MS, timeoutMs),
    },
  });

  /** One call to the store, ended at its deadline; failures become StorageErrors. */
  async function bounded<T>(
    operation: StorageOperation,
    run: (signal: AbortSignal) => Promise<T>,
    bodyBytes = 0,
  ): Promise<T> {
    const deadline = AbortSignal.timeout(
      timeoutMs + Math.ceil((bodyBytes / MIN_UPLOAD_BYTES_PER_SECOND) * 1000),
    );
    const aborted = abortion(deadline);
    try {
      return await Promise.race([run(deadline), aborted.promise]);
    } catch (error) {
      throw storageErrorOf(operation, error, deadline);
    } finally {
      aborted.dispose();
    }
  }

  return {
    driver: 's3',

    async put(key, body, { contentType, cacheControl }) {
      assertStorageKey(key);
      await bounded(
        'put',
        (abortSignal) =>
          client.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: key,
              Body: body,
              ContentType: contentType,
              ContentLength: body.length,
              ...(cacheControl ? { CacheControl: cacheControl } : {}),
            }),
            { abortSignal },
          ),
        body.length,
      );
    },

    async get(key) {
      assertStorageKey(key);
      return bounded('get', async (abortSignal) => {
        let result: GetObjectCommandOutput;
        try {
          result = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }), { abortSignal });
        } catch (error) {
          if (isNotFound(error)) return undefined;
          throw error;
        }
        // The body arrives after the headers: a deadline passing meanwhile releases its socket.
        const stream = result.Body as Readable | undefined;
        const release = () => stream?.destroy();
        abortSignal.addEventListener('abort', release, { once: true });
        try {
          const bytes = result.Body ? await result.Body.transformToByteArray() : new Uint8Array();
          return {
            body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
            contentType: result.ContentType ?? 'application/octet-stream',
            cacheControl: result.CacheControl,
          };
        } finally {
          abortSignal.removeEventListener('abort', release);
        }
      });
    },

    async delete(key) {
      assertStorageKey(key);
      // S3 answers 204 for a missing key too.
      await bounded('delete', (abortSignal) =>
        client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }), { abortSignal }),
      );
    },

    async deletePrefix(prefix) {
      folderOf(prefix);
      let continuationToken: string | undefined;
      // Each page is one bounded call: a large folder may take longer in all, never one wait.
      do {
        const page = await bounded('list', (abortSignal) =>
          client.send(
            new ListObjectsV2Command({
              Bucket: bucket,
              Prefix: prefix,
              MaxKeys: pageSize,
              ContinuationToken: continuationToken,
            }),
            { abortSignal },
          ),
        );
        const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (keys.length > 0) {
          const result = await bounded('delete_many', (abortSignal) =>
            client.send(
              new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }),
              {
                abortSignal,
              },
            ),
          );
          const failed = result.Errors ?? [];
          // The store answered, refusing some keys: a failing upstream, named by its first code.
          if (failed.length > 0) throw createStorageFailedError('delete_many', failed[0]?.Code ?? 'Error');
        }
        // The token names the last key listed, so deleting that page does not disturb the next.
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
    },

    publicUrl: publicUrlFor(config.cdnUrl),

    async close() {
      client.destroy();
    },
  };
}
