// The geocoding job's reads and writes: a workspace's locations waiting for coordinates, the
// verdicts written back (only while the location still has the address that was looked up), the
// counts of the dashboard, and the workspace's geocoding process.
import { and, asc, count, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import { advisoryXactLock } from '../../db/locks.ts';
import { type GeocodeStatus, locationsTable } from '../locations/locations.table.ts';
import { openingColumns } from '../locations/opening/locations.opening.ts';
import { processesTable } from '../processes/processes.table.ts';
import { workspaceMembersTable } from '../workspaces/workspaces.table.ts';
import type { AddressFields } from './geocoding.address.ts';
import { geocodeCacheTable } from './geocoding.table.ts';

/** Address keys forgotten in one statement. */
const FORGET_BATCH = 10_000;

export const GEOCODING_PROCESS_TYPE = 'geocoding';
/** The step a geocoding process fails at when the provider refuses the key. */
export const KEY_REFUSED_STEP = 'key_refused';
/** How long after a refused key geocoding is queued only by a person's start. */
const REFUSED_KEY_PAUSE = '1 hour';

export interface PendingLocation extends AddressFields {
  id: number;
}

export type GeocodingCounts = Record<GeocodeStatus, number> & { without_coordinates: number };

const addressColumns = {
  address: locationsTable.address,
  zip: locationsTable.zip,
  city: locationsTable.city,
  state: locationsTable.state,
  country: locationsTable.country,
};

/** The location still has exactly the address that was looked up. */
const sameAddress = (fields: AddressFields) =>
  and(
    ...Object.entries(addressColumns).map(
      ([name, column]) => sql`${column} is not distinct from ${fields[name as keyof AddressFields]}`,
    ),
  );

export function createGeocodingRepository(db: Database) {
  return {
    /**
     * Serialises, per workspace, queueing its geocoding with the job's decision to finish: a
     * write that leaves locations pending either sees the running process (which then sees
     * those locations before it finishes) or queues a new one.
     */
    lockWorkspace: (tx: Transaction, workspaceId: number) => advisoryXactLock(tx, `geocoding:${workspaceId}`),

    /** The workspace's geocoding process that is queued or running, if any. */
    async activeProcess(workspaceId: number, tx: Executor = db) {
      const [row] = await tx
        .select({ id: processesTable.id, status: processesTable.status })
        .from(processesTable)
        .where(
          and(
            eq(processesTable.workspaceId, workspaceId),
            eq(processesTable.type, GEOCODING_PROCESS_TYPE),
            inArray(processesTable.status, ['pending', 'running']),
          ),
        )
        .orderBy(asc(processesTable.id))
        .limit(1);
      return row;
    },

    /**
     * Whether the workspace's latest geocoding process failed on a refused key within the last
     * REFUSED_KEY_PAUSE: until then writes and the maintenance job queue none (each would fail on
     * its first request); after it one is queued again, so a fixed key is used without a person.
     */
    async stoppedByRefusedKey(workspaceId: number, tx: Executor = db): Promise<boolean> {
      const [row] = await tx
        .select({
          status: processesTable.status,
          step: processesTable.currentStep,
          recent: sql<boolean>`${processesTable.finishedAt} > now() - ${REFUSED_KEY_PAUSE}::interval`,
        })
        .from(processesTable)
        .where(
          and(eq(processesTable.workspaceId, workspaceId), eq(processesTable.type, GEOCODING_PROCESS_TYPE)),
        )
        .orderBy(desc(processesTable.id))
        .limit(1);
      return row?.status === 'failed' && row.step === KEY_REFUSED_STEP && row.recent === true;
    },

    async process(processId: number) {
      const [row] = await db
        .select({ workspaceId: processesTable.workspaceId, summary: processesTable.summary })
        .from(processesTable)
        .where(eq(processesTable.id, processId));
      return row;
    },

    /** Whether any location of the workspace is pending: one index entry, however many there are. */
    /** The workspaces with pending locations (the partial index on geocode_status reads them). */
    async workspacesWithPending(tx: Executor = db): Promise<number[]> {
      const rows = await tx
        .selectDistinct({ workspaceId: locationsTable.workspaceId })
        .from(locationsTable)
        .where(eq(locationsTable.geocodeStatus, 'pending'));
      return rows.map((row) => row.workspaceId);
    },

    /** The workspace's first owner (the lowest user id), or undefined when it has none left. */
    async firstOwner(workspaceId: number, tx: Executor = db): Promise<number | undefined> {
      const [row] = await tx
        .select({ userId: workspaceMembersTable.userId })
        .from(workspaceMembersTable)
        .where(
          and(eq(workspaceMembersTable.workspaceId, workspaceId), eq(workspaceMembersTable.role, 'owner')),
        )
        .orderBy(asc(workspaceMembersTable.userId))
        .limit(1);
      return row?.userId;
    },

    async hasPending(workspaceId: number, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .select({ id: locationsTable.id })
        .from(locationsTable)
        .where(and(eq(locationsTable.workspaceId, workspaceId), eq(locationsTable.geocodeStatus, 'pending')))
        .limit(1);
      return rows.length > 0;
    },

    async pendingCount(workspaceId: number, tx: Executor = db): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(locationsTable)
        .where(and(eq(locationsTable.workspaceId, workspaceId), eq(locationsTable.geocodeStatus, 'pending')));
      return row?.n ?? 0;
    },

    /** Pending locations after `afterId`, by id. */
    nextPending(workspaceId: number, afterId: number, limit: number): Promise<PendingLocation[]> {
      return db
        .select({ id: locationsTable.id, ...addressColumns })
        .from(locationsTable)
        .where(
          and(
            eq(locationsTable.workspaceId, workspaceId),
            eq(locationsTable.geocodeStatus, 'pending'),
            gt(locationsTable.id, afterId),
          ),
        )
        .orderBy(asc(locationsTable.id))
        .limit(limit);
    },

    /**
     * Sets the coordinates (the trigger clears the status) and, by the API's rule, the time zone
     * derived from them unless one was given; false when the address changed meanwhile.
     */
    async place(location: PendingLocation, point: { lat: number; lng: number }): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(locationsTable)
          .where(
            and(
              eq(locationsTable.id, location.id),
              eq(locationsTable.geocodeStatus, 'pending'),
              sameAddress(location),
            ),
          )
          .for('update');
        if (!before) return false;
        // A lat/lng change raises no error of its own: the rules between fields held before.
        const opening = openingColumns(point, before, {});
        await tx
          .update(locationsTable)
          .set({ ...opening, lat: point.lat, lng: point.lng, updatedAt: new Date() })
          .where(eq(locationsTable.id, location.id));
        return true;
      });
    },

    /** Records why a location stays without coordinates; false when the address changed meanwhile. */
    async mark(location: PendingLocation, status: Exclude<GeocodeStatus, 'pending'>): Promise<boolean> {
      const rows = await db
        .update(locationsTable)
        // updated_at stays: nothing a reader sees changed.
        .set({ geocodeStatus: status, updatedAt: sql`${locationsTable.updatedAt}` })
        .where(
          and(
            eq(locationsTable.id, location.id),
            eq(locationsTable.geocodeStatus, 'pending'),
            sameAddress(location),
          ),
        )
        .returning({ id: locationsTable.id });
      return rows.length > 0;
    },

    /** Locations with these statuses are looked up again (POST /workspaces/{id}/geocoding). */
    /** Makes the locations with these statuses pending again; answers their addresses. */
    async requeue(tx: Transaction, workspaceId: number, statuses: GeocodeStatus[]): Promise<AddressFields[]> {
      if (statuses.length === 0) return [];
      return tx
        .update(locationsTable)
        .set({ geocodeStatus: 'pending', updatedAt: sql`${locationsTable.updatedAt}` })
        .where(
          and(eq(locationsTable.workspaceId, workspaceId), inArray(locationsTable.geocodeStatus, statuses)),
        )
        .returning({
          address: locationsTable.address,
          zip: locationsTable.zip,
          city: locationsTable.city,
          state: locationsTable.state,
          country: locationsTable.country,
        });
    },

    /**
     * Forgets the provider's kept answers for these address keys that set no point (nothing
     * found, or only an approximate one): a person asking to look them up again is answered by
     * the provider, not by the cache.
     */
    async forgetImpreciseAnswers(tx: Transaction, provider: string, keys: string[]): Promise<void> {
      // In batches: a statement takes at most 65,535 parameters.
      for (let start = 0; start < keys.length; start += FORGET_BATCH) {
        await tx
          .delete(geocodeCacheTable)
          .where(
            and(
              eq(geocodeCacheTable.provider, provider),
              inArray(geocodeCacheTable.addressKey, keys.slice(start, start + FORGET_BATCH)),
              or(
                eq(geocodeCacheTable.answer, 'not_found'),
                sql`${geocodeCacheTable.precision} not in ('ROOFTOP', 'RANGE_INTERPOLATED')`,
              ),
            ),
          );
      }
    },

    async counts(workspaceId: number): Promise<GeocodingCounts> {
      const rows = await db
        .select({ status: locationsTable.geocodeStatus, n: count() })
        .from(locationsTable)
        .where(
          and(
            eq(locationsTable.workspaceId, workspaceId),
            or(isNull(locationsTable.lat), isNull(locationsTable.lng)),
          ),
        )
        .groupBy(locationsTable.geocodeStatus);
      const counts: GeocodingCounts = {
        pending: 0,
        not_found: 0,
        imprecise: 0,
        failed: 0,
        without_coordinates: 0,
      };
      for (const row of rows) {
        if (row.status) counts[row.status] = row.n;
        counts.without_coordinates += row.n;
      }
      return counts;
    },
  };
}

export type GeocodingRepository = ReturnType<typeof createGeocodingRepository>;
