// The `s3` driver: any S3-compatible store through @aws-sdk/client-s3, keeping each object's
// Content-Type and Cache-Control as object metadata.
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { Config } from '../../config.ts';
import { assertStorageKey, folderOf, publicUrlFor } from './keys.ts';
import type { Storage } from './types.ts';

export interface S3StorageOptions {
  /** Keys per ListObjectsV2/DeleteObjects page (S3's maximum is 1000). */
  pageSize?: number;
}

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

export function createS3Storage(
  config: Pick<Config['storage'], 's3' | 'cdnUrl'>,
  options: S3StorageOptions = {},
): Storage {
  const { bucket, region, endpoint, accessKeyId, secretAccessKey, forcePathStyle } = config.s3;
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
  });

  return {
    driver: 's3',

    async put(key, body, { contentType, cacheControl }) {
      assertStorageKey(key);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          ContentLength: body.length,
          ...(cacheControl ? { CacheControl: cacheControl } : {}),
        }),
      );
    },

    async get(key) {
      assertStorageKey(key);
      try {
        const result = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        const bytes = result.Body ? await result.Body.transformToByteArray() : new Uint8Array();
        return {
          body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          contentType: result.ContentType ?? 'application/octet-stream',
          cacheControl: result.CacheControl,
        };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async delete(key) {
      assertStorageKey(key);
      // S3 answers 204 for a missing key too.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },

    async deletePrefix(prefix) {
      folderOf(prefix);
      let continuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            MaxKeys: pageSize,
            ContinuationToken: continuationToken,
          }),
        );
        const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (keys.length > 0) {
          const result = await client.send(
            new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }),
          );
          const failed = result.Errors ?? [];
          if (failed.length > 0) {
            const first = failed[0]!;
            throw new Error(
              `S3 could not delete ${failed.length} object(s) under ${prefix}: ${first.Key}: ${first.Code} ${first.Message}`,
            );
          }
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
