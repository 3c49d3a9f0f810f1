// Bulk changes of locations (docs/api.md, Locations: bulk changes): one action over the
// locations a body names by id or selects by filter, in one transaction of set-based
// statements, with the side effects of a single location's edit told once for the request.
import type { Database } from '../../../db/client.ts';
import type { Actor } from '../../../lib/actor.ts';
import { mapWithConcurrency } from '../../../lib/concurrency.ts';
import { createFieldError } from '../../../lib/errors.ts';
import type { PayloadChangeListener } from '../../../lib/payload-changes.ts';
import { createSetNotFoundError } from '../../sets/sets.errors.ts';
import { createTagNotFoundError } from '../../tags/tags.errors.ts';
import { createLocationNotFoundError } from '../locations.errors.ts';
import type { LocationFilter } from '../locations.repository.ts';
import type { LocationListFilterQuery } from '../locations.service.ts';
import { applyBulkAction, lockLocations, lockTarget } from './locations.bulk.repository.ts';
import {
  type BulkLocationsBody,
  type BulkLocationsResult,
  MAX_BULK_LOCATIONS,
  targetKindOf,
} from './locations.bulk.schemas.ts';

/** Stored images of deleted locations removed at once: a few calls to the store in flight. */
const IMAGE_DELETES_AT_ONCE = 8;

interface LocationBulkServiceDeps {
  db: Database;
  /** Which locations a list of the workspace holds with this filter (the locations service's rule). */
  listFilter: (actor: Actor, query: LocationListFilterQuery) => Promise<LocationFilter>;
  /** Told once after the commit, as after a single location's edit: locations are in finder payloads. */
  changes: PayloadChangeListener;
  /** Best-effort removal of a deleted location's image, after the commit. */
  onImageOrphaned?: (key: string) => Promise<void>;
}

export function createLocationBulkService({
  db,
  listFilter,
  changes,
  onImageOrphaned,
}: LocationBulkServiceDeps) {
  return {
    /**
     * Applies the action to every location the body names or selects. Any named id that is not a
     * location of the workspace answers 404 and changes nothing; a filter selecting more than
     * MAX_BULK_LOCATIONS answers 422 and changes nothing.
     */
    async apply(actor: Actor, body: BulkLocationsBody): Promise<BulkLocationsResult> {
      // The workspace's 404 (and the finder's) come from the list's own rule.
      const filter = await listFilter(actor, { ...body.filter, workspace_id: body.workspace_id });
      const named = body.ids === undefined ? undefined : [...new Set(body.ids)];
      const kind = targetKindOf(body.action);
      const targetId = kind === 'tag' ? body.tag_id : kind === 'set' ? body.set_id : undefined;
      const outcome = await db.transaction(async (tx) => {
        if (kind !== undefined && !(await lockTarget(tx, kind, targetId!, body.workspace_id))) {
          throw kind === 'tag' ? createTagNotFoundError() : createSetNotFoundError();
        }
        const ids = await lockLocations(tx, body.action, filter, named, MAX_BULK_LOCATIONS + 1);
        if (named !== undefined && ids.length !== named.length) throw createLocationNotFoundError();
        if (ids.length > MAX_BULK_LOCATIONS) {
          throw createFieldError(
            'filter',
            `The filter selects more than ${MAX_BULK_LOCATIONS} locations; at most ${MAX_BULK_LOCATIONS} may be changed at once.`,
          );
        }
        return applyBulkAction(tx, body.action, ids, targetId);
      });
      if (outcome.affected > 0) await changes.workspaceChanged(body.workspace_id);
      if (onImageOrphaned) {
        await mapWithConcurrency(outcome.orphanedImageKeys, IMAGE_DELETES_AT_ONCE, onImageOrphaned);
      }
      return { action: body.action, affected: outcome.affected };
    },
  };
}

export type LocationBulkService = ReturnType<typeof createLocationBulkService>;
