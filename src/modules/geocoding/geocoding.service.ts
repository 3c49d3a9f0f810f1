// Geocoding as a workspace sees it (docs/api.md, Geocoding): every write that leaves locations
// waiting for coordinates queues the workspace's `geocoding` process (at most one queued or
// running per workspace), and the dashboard reads the counts and starts it again.
import { randomUUID } from 'node:crypto';
import type { Database, Transaction } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Actor } from '../../lib/actor.ts';
import { createConflictError } from '../../lib/errors.ts';
import type { GeocodeStatus } from '../locations/locations.table.ts';
import type { ProcessesService } from '../processes/processes.service.ts';
import { assertWorkspaceAccess } from '../workspaces/workspaces.access.ts';
import { addressKey } from './geocoding.address.ts';
import {
  GEOCODING_PROCESS_TYPE,
  type GeocodingCounts,
  type GeocodingRepository,
} from './geocoding.repository.ts';
import type { Geocoder } from './geocoding.types.ts';

export const GEOCODING_JOB = 'geocoding.run';

export interface GeocodingStatePayload extends GeocodingCounts {
  geocoder: Geocoder['kind'];
  /** The workspace's queued or running geocoding process. */
  process: { id: number; status: 'pending' | 'running' } | null;
}

interface GeocodingServiceDeps {
  db: Database;
  repository: GeocodingRepository;
  processes: ProcessesService;
  jobs: JobQueue;
  geocoderKind: Geocoder['kind'];
}

export function createGeocodingService({
  db,
  repository,
  processes,
  jobs,
  geocoderKind,
}: GeocodingServiceDeps) {
  /**
   * In the caller's transaction, after its writes: queues the workspace's geocoding when it has
   * pending locations and none is queued or running. No geocoder configured: nothing to do.
   * For an hour after the provider refused the key, only a person's start (`byHand`) queues
   * again: otherwise every later write would queue a process that fails on its first request.
   * Answers the active process's id, if there is one.
   */
  async function enqueue(
    tx: Transaction,
    workspaceId: number,
    userId: number | null,
    byHand = false,
  ): Promise<number | undefined> {
    if (geocoderKind === 'none') return undefined;
    if (!(await repository.hasPending(workspaceId, tx))) return undefined;
    await repository.lockWorkspace(tx, workspaceId);
    const active = await repository.activeProcess(workspaceId, tx);
    if (active) return active.id;
    if (!byHand && (await repository.stoppedByRefusedKey(workspaceId, tx))) return undefined;
    const pending = await repository.pendingCount(workspaceId, tx);
    const jobId = randomUUID();
    const id = await processes.create(
      {
        workspaceId,
        userId,
        type: GEOCODING_PROCESS_TYPE,
        status: 'pending',
        progressPercent: 0,
        currentStep: 'queued',
        queue: GEOCODING_JOB,
        relatedType: 'workspace',
        relatedId: workspaceId,
        inputPayload: { workspace_id: workspaceId },
        jobId,
      },
      [
        {
          type: 'status',
          status: 'pending',
          progressPercent: 0,
          step: 'queued',
          message: `${pending === 1 ? '1 location waits' : `${pending} locations wait`} for coordinates; geocoding is queued.`,
        },
      ],
      tx,
    );
    await jobs.send(GEOCODING_JOB, { process_id: id }, { tx, id: jobId });
    return id;
  }

  async function state(workspaceId: number): Promise<GeocodingStatePayload> {
    const [counts, active] = await Promise.all([
      repository.counts(workspaceId),
      repository.activeProcess(workspaceId),
    ]);
    return {
      ...counts,
      geocoder: geocoderKind,
      process: active ? { id: active.id, status: active.status as 'pending' | 'running' } : null,
    };
  }

  return {
    enqueue,

    /**
     * Queues the geocoding of every workspace that has pending locations and no process queued
     * or running: locations made pending by no write that queued them (the migration's
     * backfill of older locations). Run by the hourly maintenance job; answers how many it queued.
     * The process is the workspace's first owner's: a process is seen (its progress, its events,
     * its cancel) only by its user, and one of nobody's would be seen by no one.
     */
    async enqueueWaiting(): Promise<number> {
      if (geocoderKind === 'none') return 0;
      let queued = 0;
      for (const workspaceId of await repository.workspacesWithPending()) {
        await db.transaction(async (tx) => {
          const active = await repository.activeProcess(workspaceId, tx);
          if (active) return;
          const owner = await repository.firstOwner(workspaceId, tx);
          if ((await enqueue(tx, workspaceId, owner ?? null)) !== undefined) queued += 1;
        });
      }
      return queued;
    },

    async get(actor: Actor, workspaceId: number): Promise<GeocodingStatePayload> {
      await assertWorkspaceAccess(db, actor, workspaceId);
      return state(workspaceId);
    },

    /** Looks up again the locations with `retry` statuses and queues the job (409 without a geocoder). */
    async start(actor: Actor, workspaceId: number, retry: GeocodeStatus[]): Promise<GeocodingStatePayload> {
      await assertWorkspaceAccess(db, actor, workspaceId);
      if (geocoderKind === 'none') {
        throw createConflictError('No geocoder is configured (GEOCODER=none); place the locations by hand.');
      }
      await db.transaction(async (tx) => {
        const requeued = await repository.requeue(tx, workspaceId, retry);
        await repository.forgetImpreciseAnswers(tx, geocoderKind, requeued.map(addressKey));
        await enqueue(tx, workspaceId, actor.userId, true);
      });
      return state(workspaceId);
    },
  };
}

export type GeocodingService = ReturnType<typeof createGeocodingService>;
