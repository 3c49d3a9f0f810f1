// A location's image, POST/DELETE /locations/{id}/image (docs/api.md, Storage and CDN): JPEG or PNG
// judged by the bytes, at most 5 MB, stored under
// `workspaces/{workspace_id}/locations/{id}/{uuid}.{ext}` and served from the CDN. The object is
// written before the row points at it, so a saved image_url never names a missing file; replaced
// and removed objects are deleted best effort.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Database } from '../../../db/client.ts';
import type { Actor } from '../../../lib/actor.ts';
import { detectImageType } from '../../../lib/images.ts';
import type { PayloadChangeListener } from '../../../lib/payload-changes.ts';
import type { Storage } from '../../../lib/storage/storage.ts';
import { createLocationNotFoundError, createUnsupportedImageError } from '../locations.errors.ts';
import type { LocationsRepository } from '../locations.repository.ts';
import type { LocationPayload } from '../locations.schemas.ts';

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Every upload gets a new key, so its object never changes. */
export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

interface LocationImageDeps {
  db: Database;
  repository: LocationsRepository;
  storage: Storage;
  logger: Logger;
  /** Told after each change of an image (it never throws): image_url is in finder payloads. */
  changes: PayloadChangeListener;
}

export function createLocationImageService({ db, repository, storage, logger, changes }: LocationImageDeps) {
  /** Best effort: a leftover object costs storage, never a failed request. */
  async function discard(key: string, locationId: number): Promise<void> {
    try {
      await storage.delete(key);
    } catch (error) {
      logger.warn({ err: error, key, locationId }, 'could not delete a location image from storage');
    }
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

      let swapped: Awaited<ReturnType<LocationsRepository['swapImage']>>;
      try {
        swapped = await repository.swapImage(id, { url, key });
      } catch (error) {
        await discard(key, id);
        throw error;
      }
      // Deleted while the upload ran.
      if (!swapped) {
        await discard(key, id);
        throw createLocationNotFoundError();
      }
      await changes.workspaceChanged(location.workspaceId);
      if (swapped.previousKey) await discard(swapped.previousKey, id);
      return { image_url: url };
    },

    async remove(actor: Actor, id: number): Promise<LocationPayload> {
      const location = await repository.findAccessible(actor, id);
      if (!location) throw createLocationNotFoundError();
      // The answer is read inside the write's transaction: after COMMIT nothing can fail, so a
      // removal that happened is never answered with an error.
      const { previousKey, payload } = await db.transaction(async (tx) => {
        const swapped = await repository.swapImage(id, null, tx);
        const found = swapped && (await repository.findPayload(id, tx));
        if (!swapped || !found) throw createLocationNotFoundError();
        return { previousKey: swapped.previousKey, payload: found };
      });
      await changes.workspaceChanged(location.workspaceId);
      if (previousKey) await discard(previousKey, id);
      return payload;
    },
  };
}

export type LocationImageService = ReturnType<typeof createLocationImageService>;
