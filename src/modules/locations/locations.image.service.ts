// A location's image (spec: POST/DELETE /locations/{id}/image, decisions §5): JPEG or PNG judged
// by the bytes, at most 5 MB, stored under `workspaces/{workspace_id}/locations/{id}/{uuid}.{ext}`
// and served from the CDN. The object is written before the row points at it, so a saved
// image_url never names a missing file; replaced and removed objects are deleted best effort.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { detectImageType } from '../../lib/images.ts';
import type { Storage } from '../../lib/storage.ts';
import type { Actor } from '../workspaces/workspaces.access.ts';
import { createLocationsRepository } from './locations.repository.ts';
import type { LocationPayload } from './locations.schemas.ts';
import { createLocationNotFoundError, type LocationsService } from './locations.service.ts';
import { locationsTable } from './locations.table.ts';

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Every upload gets a new key, so its object never changes. */
export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export const createUnsupportedImageError = () =>
  new AppError(415, 'unsupported_media_type', 'The image must be a JPEG or PNG file.');

export const createImageTooLargeError = () =>
  new AppError(413, 'payload_too_large', 'The image may not be larger than 5 MB.');

interface LocationImageDeps {
  db: Database;
  storage: Storage;
  locations: LocationsService;
  logger: Logger;
}

export function createLocationImageService({ db, storage, locations, logger }: LocationImageDeps) {
  const repository = createLocationsRepository(db);

  /** Best effort: a leftover object costs storage, never a failed request. */
  async function discard(key: string, locationId: number): Promise<void> {
    try {
      await storage.delete(key);
    } catch (error) {
      logger.warn({ err: error, key, locationId }, 'could not delete a location image from storage');
    }
  }

  /**
   * Points the row at the image (or at none) and answers the key it pointed at before;
   * undefined when the location is gone. The row lock keeps two uploads from both keeping
   * the same previous key.
   */
  async function swapImage(id: number, image: { url: string; key: string } | null) {
    return db.transaction(async (tx) => {
      const [row] = await tx
        .select({ imageKey: locationsTable.imageKey })
        .from(locationsTable)
        .where(eq(locationsTable.id, id))
        .for('update');
      if (!row) return undefined;
      await tx
        .update(locationsTable)
        .set({ imageUrl: image?.url ?? null, imageKey: image?.key ?? null, updatedAt: new Date() })
        .where(eq(locationsTable.id, id));
      return { previousKey: row.imageKey };
    });
  }

  return {
    async upload(actor: Actor, id: number, bytes: Buffer): Promise<{ image_url: string }> {
      const location = await repository.findAccessible(actor, id);
      if (!location) throw createLocationNotFoundError();
      const type = detectImageType(bytes);
      if (!type) throw createUnsupportedImageError();

      const key = `workspaces/${location.workspaceId}/locations/${id}/${randomUUID()}.${type.ext}`;
      const url = storage.publicUrl(key);
      await storage.put(key, bytes, { contentType: type.contentType, cacheControl: IMAGE_CACHE_CONTROL });

      let swapped: Awaited<ReturnType<typeof swapImage>>;
      try {
        swapped = await swapImage(id, { url, key });
      } catch (error) {
        await discard(key, id);
        throw error;
      }
      // Deleted while the upload ran.
      if (!swapped) {
        await discard(key, id);
        throw createLocationNotFoundError();
      }
      if (swapped.previousKey) await discard(swapped.previousKey, id);
      return { image_url: url };
    },

    async remove(actor: Actor, id: number): Promise<LocationPayload> {
      const location = await repository.findAccessible(actor, id);
      if (!location) throw createLocationNotFoundError();
      const swapped = await swapImage(id, null);
      if (!swapped) throw createLocationNotFoundError();
      if (swapped.previousKey) await discard(swapped.previousKey, id);
      return locations.get(actor, id);
    },
  };
}

export type LocationImageService = ReturnType<typeof createLocationImageService>;
