// Locations: workspace-scoped CRUD with tags by name, sets by id and typed custom values
// (docs/api.md, Locations). Every write of one request runs in one transaction.
import type { SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { type FieldErrors, throwFieldErrors } from '../../lib/errors.ts';
import type { Page, StreamedList } from '../../lib/pagination.ts';
import type { PayloadChangeListener } from '../../lib/payload-changes.ts';
import { checkCustomValues } from '../custom-fields/custom-fields.values.ts';
import { findOrCreateTagsByName } from '../tags/tags.repository.ts';
import { assertWorkspaceAccess } from '../workspaces/workspaces.access.ts';
import { DEFAULT_LOCATION_SORT, type LocationSort } from './list/locations.list-order.ts';
import { createLocationNotFoundError } from './locations.errors.ts';
import type { LocationFilter, LocationsRepository } from './locations.repository.ts';
import { normalizeWebsite, WEBSITE_MESSAGE } from './locations.rules.ts';
import type { CreateLocationBody, LocationPayload, UpdateLocationBody } from './locations.schemas.ts';
import type { LocationRow, NewLocation } from './locations.table.ts';
import { openingColumns } from './opening/locations.opening.ts';

type Columns = Partial<NewLocation>;

/**
 * What a writer of locations calls in its transaction, after its writes, so locations left
 * without coordinates get geocoded (the geocoding module's enqueue; docs/api.md, Geocoding).
 */
export type QueueGeocoding = (
  tx: Transaction,
  workspaceId: number,
  userId: number | null,
) => Promise<unknown>;

/** Which locations a list holds: of a workspace, shown by a finder, among some ids, holding a text (all optional). */
export interface LocationListFilterQuery {
  workspace_id?: number;
  finder_id?: number;
  ids?: number[];
  q?: string;
  without_coordinates?: boolean;
}

/**
 * The locations a finder shows, as a statement of `location_id` rows, once the actor is known to
 * reach the finder (else the finder's 404). Finders sit above locations, so the finders module
 * provides it (finders.shown-locations.ts).
 */
export type FinderLocations = (actor: Actor, finderId: number) => Promise<SQL>;

interface LocationsServiceDeps {
  db: Database;
  locations: LocationsRepository;
  finderLocations: FinderLocations;
  /** Told after each write (it never throws): locations are in finder payloads. */
  changes: PayloadChangeListener;
  /** Best-effort removal of a deleted location's image, after the commit. */
  onImageOrphaned?: (key: string) => Promise<void>;
  /** Queues the workspace's geocoding when a write leaves the location without coordinates. */
  queueGeocoding?: QueueGeocoding;
}

export function createLocationsService({
  db,
  locations,
  finderLocations,
  changes,
  onImageOrphaned,
  queueGeocoding,
}: LocationsServiceDeps) {
  /**
   * Column values of the body over the location `before` (none when creating); the relations
   * (tags, sets, custom values) are written separately.
   */
  function columnsOf(
    body: UpdateLocationBody,
    before: LocationRow | undefined,
    errors: FieldErrors,
  ): Columns {
    const {
      tags: _tags,
      set_ids: _sets,
      custom_fields: _custom,
      external_id,
      time_zone: _timeZone,
      hours: _hours,
      special_hours: _specialHours,
      temporarily_closed: _closed,
      reopens_on: _reopensOn,
      ...fields
    } = body;
    const columns: Columns = { ...fields, ...openingColumns(body, before, errors) };
    if (external_id !== undefined) columns.externalId = external_id;
    if (typeof fields.website === 'string') {
      const website = normalizeWebsite(fields.website);
      if (website === undefined) errors.website = [WEBSITE_MESSAGE];
      else columns.website = website;
    }
    return columns;
  }

  /** Writes tags, sets and custom values of one location; collects field errors instead of throwing. */
  async function writeRelations(
    tx: Transaction,
    location: LocationRow,
    body: UpdateLocationBody,
    errors: FieldErrors,
    creating: boolean,
  ): Promise<void> {
    if (body.custom_fields !== undefined || creating) {
      const definitions = await locations.definitions(location.workspaceId, tx);
      const checked = checkCustomValues(definitions, body.custom_fields ?? {}, { enforceRequired: creating });
      Object.assign(errors, checked.errors);
      if (Object.keys(checked.values).length > 0 && Object.keys(checked.errors).length === 0) {
        await locations.mergeCustomValues(location.id, checked.values, tx);
      }
    }
    if (body.set_ids !== undefined) {
      const wanted = [...new Set(body.set_ids)];
      const found = await locations.existingSetIds(location.workspaceId, wanted, tx);
      if (found.size !== wanted.length) errors.set_ids = ['The selected set ids are invalid.'];
      else await locations.replaceSets(location.id, wanted, tx);
    }
    if (body.tags !== undefined) {
      const tags = await findOrCreateTagsByName(tx, location.workspaceId, body.tags);
      await locations.replaceTags(
        location.id,
        [...tags.values()].map((tag) => tag.id),
        tx,
      );
    }
  }

  async function findAccessible(actor: Actor, id: number): Promise<LocationRow> {
    const row = await locations.findAccessible(actor, id);
    if (!row) throw createLocationNotFoundError();
    return row;
  }

  async function payload(id: number, tx?: Transaction): Promise<LocationPayload> {
    const found = await locations.findPayload(id, tx);
    if (!found) throw createLocationNotFoundError();
    return found;
  }

  /**
   * The filter of a list (and of a bulk change), once the actor is known to reach the workspace
   * and the finder.
   */
  async function listFilter(actor: Actor, query: LocationListFilterQuery): Promise<LocationFilter> {
    const filter: LocationFilter = {
      actor,
      q: query.q,
      ids: query.ids,
      withoutCoordinates: query.without_coordinates,
    };
    if (query.workspace_id !== undefined) {
      await assertWorkspaceAccess(db, actor, query.workspace_id);
      filter.workspaceId = query.workspace_id;
    }
    if (query.finder_id !== undefined) filter.among = await finderLocations(actor, query.finder_id);
    return filter;
  }

  return {
    listFilter,

    /** The list as JSON texts, in the order of `sort`, streamed in batches (lib/pagination.ts streamList). */
    async streamList(
      actor: Actor,
      { sort = DEFAULT_LOCATION_SORT, ...query }: LocationListFilterQuery & { sort?: LocationSort },
      page: Page,
    ): Promise<StreamedList> {
      return locations.streamList(await listFilter(actor, query), sort, page);
    },

    async get(actor: Actor, id: number): Promise<LocationPayload> {
      await findAccessible(actor, id);
      return payload(id);
    },

    // Writes read their answer back inside their transaction: once COMMIT succeeds nothing is
    // left that can fail, so a saved row is never answered with an error (which a client would
    // retry into a duplicate).
    async create(actor: Actor, body: CreateLocationBody): Promise<LocationPayload> {
      await assertWorkspaceAccess(db, actor, body.workspace_id);
      const created = await db.transaction(async (tx) => {
        const errors: FieldErrors = {};
        const columns = columnsOf(body, undefined, errors);
        const row = await locations.insert(
          { ...columns, title: body.title, workspaceId: body.workspace_id },
          tx,
        );
        await writeRelations(tx, row, body, errors, true);
        throwFieldErrors(errors);
        if (row.geocodeStatus === 'pending') await queueGeocoding?.(tx, row.workspaceId, actor.userId);
        return payload(row.id, tx);
      });
      await changes.workspaceChanged(body.workspace_id);
      return created;
    },

    async update(actor: Actor, id: number, body: UpdateLocationBody): Promise<LocationPayload> {
      const { workspaceId, updated } = await db.transaction(async (tx) => {
        // The body is judged against the row as it is locked, not as read before: two updates
        // that each pass against the same old row (one giving hours, one clearing the time
        // zone) could otherwise store together what neither may alone.
        const location = await locations.lockAccessible(actor, id, tx);
        if (!location) throw createLocationNotFoundError();
        const errors: FieldErrors = {};
        const columns = columnsOf(body, location, errors);
        // Touch updated_at even when only relations change.
        await locations.update(id, { ...columns, updatedAt: new Date() }, tx);
        await writeRelations(tx, location, body, errors, false);
        throwFieldErrors(errors);
        await queueGeocoding?.(tx, location.workspaceId, actor.userId);
        return { workspaceId: location.workspaceId, updated: await payload(id, tx) };
      });
      await changes.workspaceChanged(workspaceId);
      return updated;
    },

    async delete(actor: Actor, id: number): Promise<void> {
      const location = await findAccessible(actor, id);
      await locations.delete(id);
      await changes.workspaceChanged(location.workspaceId);
      if (location.imageKey) await onImageOrphaned?.(location.imageKey);
    },
  };
}

export type LocationsService = ReturnType<typeof createLocationsService>;
