// POST /ai-location-imports/{id}/import (docs/api.md, "AI import: routes and lifecycle"): applies a
// draft batch inside the request, within the 300 s budget. First, outside any transaction, the
// items to apply are planned and those without coordinates geocoded (GEOCODER through the shared
// cache and rate limit; ROOFTOP and RANGE_INTERPOLATED kept; a bounded number of calls in flight
// and a deadline; the geocoding job takes over the locations left without coordinates). Then one
// transaction, with the batch locked and the plan made again from the items as they are now (a
// PATCH may have landed meanwhile): the locations, their tags and custom values are written by the
// CSV import's staging and set-based statements (no statement per item), the written locations join
// the finder's backing map, items become imported or failed, the batch imported, and a completed
// `ai_location_import_apply` process records what happened, with its events.

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import type { Database, Transaction } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { mapWithConcurrency } from '../../lib/concurrency.ts';
import type { PayloadChangeListener } from '../../lib/payload-changes.ts';
import { UpstreamError } from '../../lib/upstream.ts';
import type { CachedGeocoder } from '../geocoding/geocoding.cache.ts';
import { applyStaged } from '../locations/import/locations.import.apply.ts';
import { copyLine, type LocationImportRepository } from '../locations/import/locations.import.repository.ts';
import { looseKey } from '../locations/import/locations.import.rows.ts';
import { StagedValues } from '../locations/import/locations.import.shared.ts';
import type { LocationsRepository } from '../locations/locations.repository.ts';
import type { QueueGeocoding } from '../locations/locations.service.ts';
import type { ProcessesService } from '../processes/processes.service.ts';
import {
  AI_ITEM_LAYOUT,
  type ApplyPlan,
  GEOCODE_WARNINGS,
  type GeocodeOutcome,
  geocodeQuery,
  outcomeOf,
  type PlannedItem,
  planApply,
  withWarnings,
} from './ai-imports.apply.ts';
import {
  createAiImportBatchNotFoundError,
  createBatchNotDraftError,
  createNoValidItemsError,
} from './ai-imports.errors.ts';
import { WARNINGS } from './ai-imports.normalize.ts';
import type { AiImportsRepository, ItemUpdate } from './ai-imports.repository.ts';
import type { ImportBatchResponse } from './ai-imports.schemas.ts';
import { BATCH_RELATED_TYPE } from './ai-imports.service.ts';
import type { AiImportItemRow, AiImportValidationError } from './ai-imports.table.ts';

export const APPLY_PROCESS_TYPE = 'ai_location_import_apply';
/** Geocoder calls in flight at once. */
export const GEOCODE_CONCURRENCY = 16;
/**
 * The apply is meant to finish within 300 s (docs/api.md, Limits); geocoding stops after this,
 * leaving time for the writes.
 */
export const GEOCODE_BUDGET_MS = 240_000;

interface ApplyServiceDeps {
  db: Database;
  repository: AiImportsRepository;
  locations: LocationsRepository;
  imports: LocationImportRepository;
  processes: ProcessesService;
  /** Through the shared cache and rate limit (docs/api.md, Geocoding). */
  geocoder: CachedGeocoder;
  logger: Logger;
  /** Told after the import commits (it never throws): the locations and map are in finder payloads. */
  changes: PayloadChangeListener;
  geocodeBudgetMs?: number;
  /** Queues the workspace's geocoding for the locations written without coordinates. */
  queueGeocoding?: QueueGeocoding;
}

interface Geocoded {
  query: string;
  outcome: GeocodeOutcome;
}

interface GeocodingTally {
  precise: number;
  imprecise: number;
  /** Items that got their coordinates from the geocoder. */
  located: Set<number>;
}

interface ApplyOutcome {
  applied: { created: number; updated: number };
  geocoding: GeocodingTally;
  joinedMapId: number | null;
}

/**
 * Sets the geocoded coordinates on the planned rows, for items that still ask for the address
 * that was geocoded (a PATCH may have changed it meanwhile); the others get a warning.
 */
function applyGeocoding(plan: ApplyPlan, geocoded: Map<number, Geocoded>): GeocodingTally {
  const tally: GeocodingTally = { precise: 0, imprecise: 0, located: new Set() };
  for (const planned of plan.apply) {
    if (planned.payload.lat !== null && planned.payload.lng !== null) continue;
    const result = geocoded.get(planned.itemId);
    const outcome: GeocodeOutcome =
      result && result.query === geocodeQuery(planned.payload)
        ? result.outcome
        : { warning: GEOCODE_WARNINGS.outOfTime };
    if ('warning' in outcome) {
      tally.imprecise += 1;
      planned.warnings.push(outcome.warning);
    } else {
      tally.precise += 1;
      planned.row.values.lat = outcome.lat;
      planned.row.values.lng = outcome.lng;
      tally.located.add(planned.itemId);
    }
  }
  return tally;
}

/** Applied items become imported (with their location), the others failed. */
function itemUpdates(
  plan: ApplyPlan,
  stored: readonly AiImportItemRow[],
  located: ReadonlySet<number>,
  locationOf: (index: number) => number,
): ItemUpdate[] {
  const items = new Map(stored.map((item) => [item.id, item]));
  return [
    ...plan.apply.map((planned, index) => {
      const current = items.get(planned.itemId)!;
      // "will be geocoded" does not hold once it was.
      const kept = located.has(planned.itemId)
        ? current.warnings.filter((warning) => warning !== WARNINGS.noCoordinates)
        : current.warnings;
      return {
        id: planned.itemId,
        status: 'imported' as const,
        locationId: locationOf(index),
        warnings: withWarnings(kept, planned.warnings),
      };
    }),
    ...plan.failed.map((failed) => ({
      id: failed.itemId,
      status: 'failed' as const,
      validationErrors: failed.errors,
      confidence: 'low' as const,
    })),
  ];
}

export function createAiImportApplyService({
  db,
  repository,
  locations,
  imports,
  processes,
  geocoder,
  logger,
  changes,
  geocodeBudgetMs = GEOCODE_BUDGET_MS,
  queueGeocoding,
}: ApplyServiceDeps) {
  /** Geocodes the planned items without coordinates; every failure becomes a warning. */
  async function geocode(plan: ApplyPlan): Promise<Map<number, Geocoded>> {
    const results = new Map<number, Geocoded>();
    const pending = plan.apply.filter(
      (planned) => planned.payload.lat === null || planned.payload.lng === null,
    );
    if (pending.length === 0) return results;
    if (geocoder.kind === 'none') {
      for (const planned of pending) {
        results.set(planned.itemId, {
          query: geocodeQuery(planned.payload),
          outcome: { warning: GEOCODE_WARNINGS.disabled },
        });
      }
      return results;
    }
    const deadline = AbortSignal.timeout(geocodeBudgetMs);
    await mapWithConcurrency(pending, GEOCODE_CONCURRENCY, async (planned) => {
      const query = geocodeQuery(planned.payload);
      let outcome: GeocodeOutcome;
      if (deadline.aborted) {
        outcome = { warning: GEOCODE_WARNINGS.outOfTime };
      } else {
        try {
          outcome = outcomeOf((await geocoder.lookup(planned.payload, { signal: deadline })).answer);
        } catch (error) {
          outcome = {
            warning:
              deadline.aborted || (error instanceof UpstreamError && error.failure === 'aborted')
                ? GEOCODE_WARNINGS.outOfTime
                : GEOCODE_WARNINGS.failed(error instanceof Error ? error.message : String(error)),
          };
          logger.warn({ err: error, itemId: planned.itemId }, 'AI import: geocoding an item failed');
        }
      }
      results.set(planned.itemId, { query, outcome });
    });
    return results;
  }

  /**
   * The locations of the plan, written by the CSV import's own statements: one import per
   * workspace at a time, staging by COPY, then set-based match, update, insert and tags. Items
   * repeating a location (the CSV import's loose key) are written once, as the last of them; the
   * others are imported as that same location. Items whose location the opening's rules
   * between fields refuse, once the location they update is known (hours without a time zone),
   * move from the plan's applied items to its failed ones, with those errors. Answers the counts
   * and each applied item's location (by its index in the plan).
   */
  async function writeLocations(tx: Transaction, workspaceId: number, plan: ApplyPlan) {
    const winner = new Map<string, number>();
    for (const [index, planned] of plan.apply.entries()) winner.set(looseKey(planned.row), index);
    const staged = (planned: PlannedItem) => winner.get(looseKey(planned.row))! + 1;
    const shared = new StagedValues();
    let lines = '';
    for (const index of winner.values()) lines += copyLine(index + 1, plan.apply[index]!.row, shared);

    await imports.lockWorkspace(tx, workspaceId);
    const copy = await imports.createStaging(tx);
    await pipeline(Readable.from([lines]), copy);
    const applied = await applyStaged(tx, imports, {
      workspaceId,
      layout: AI_ITEM_LAYOUT,
      mayRepeat: false,
      shared,
    });
    const refused = new Map<number, AiImportValidationError[]>();
    for (const { i, field, message } of applied.refused) {
      refused.set(i, [...(refused.get(i) ?? []), { field, message }]);
    }
    if (refused.size > 0) {
      const failed = plan.apply.filter((planned) => refused.has(staged(planned)));
      for (const planned of failed) {
        plan.failed.push({ itemId: planned.itemId, errors: refused.get(staged(planned))! });
      }
      plan.apply = plan.apply.filter((planned) => !refused.has(staged(planned)));
    }
    const targets = await imports.stagedTargets(tx);
    const locationOf = (index: number) => targets.get(staged(plan.apply[index]!))!;
    return { applied, locationOf };
  }

  /** The written locations join the map behind the batch's finder, if it has one; its id or null. */
  async function joinFinderMap(
    tx: Transaction,
    batch: { finderId: number | null; workspaceId: number },
    locationIds: number[],
  ): Promise<number | null> {
    if (batch.finderId === null) return null;
    const finder = await repository.finderInWorkspace(batch.finderId, batch.workspaceId, tx);
    if (!finder?.mapId) return null;
    await repository.joinMap(finder.mapId, locationIds, tx);
    return finder.mapId;
  }

  /** The completed process that records the apply, with the events of its steps; its id. */
  function recordProcess(
    tx: Transaction,
    run: { actor: Actor; batchId: number; workspaceId: number; startedAt: Date; plan: ApplyPlan },
    outcome: ApplyOutcome,
  ): Promise<number> {
    const { actor, batchId, workspaceId, startedAt, plan } = run;
    const { applied, geocoding, joinedMapId } = outcome;
    const approved = plan.apply.filter((planned) => planned.autoApproved).length;
    const summary = {
      batch_id: batchId,
      imported_items: plan.apply.length,
      failed_items: plan.failed.length,
      locations_created: applied.created,
      locations_updated: applied.updated,
      auto_approved: approved,
      geocoded: geocoding.precise,
      without_coordinates: geocoding.imprecise,
      map_id: joinedMapId,
    };
    return processes.create(
      {
        workspaceId,
        userId: actor.userId,
        type: APPLY_PROCESS_TYPE,
        status: 'completed',
        progressPercent: 100,
        currentStep: 'completed',
        summary,
        relatedType: BATCH_RELATED_TYPE,
        relatedId: batchId,
        inputPayload: { batch_id: batchId },
        attempts: 1,
        startedAt,
        finishedAt: new Date(),
      },
      [
        {
          type: 'status',
          status: 'running',
          progressPercent: 0,
          step: 'approving',
          message: `Importing ${plan.apply.length} items (${approved} approved automatically); ${plan.failed.length} cannot be imported.`,
        },
        {
          type: 'progress',
          status: 'running',
          progressPercent: 40,
          step: 'geocoding',
          message: `Geocoded ${geocoding.precise + geocoding.imprecise} items without coordinates: ${geocoding.precise} precise, ${geocoding.imprecise} created without coordinates.`,
        },
        {
          type: 'progress',
          status: 'running',
          progressPercent: 80,
          step: 'writing',
          message: `Wrote ${applied.created + applied.updated} locations (${applied.created} created, ${applied.updated} updated) with their tags and custom fields${joinedMapId === null ? '' : "; they joined the finder's map"}.`,
        },
        {
          type: 'status',
          status: 'completed',
          progressPercent: 100,
          step: 'completed',
          message: `Imported ${plan.apply.length} items; ${plan.failed.length} failed.`,
          payload: summary,
        },
      ],
      tx,
    );
  }

  /**
   * Geocodes outside any transaction (it may take minutes), then in one transaction with the
   * batch locked plans again from the items as they are now and writes everything.
   */
  async function importBatch(actor: Actor, batchId: number): Promise<ImportBatchResponse> {
    const startedAt = new Date();
    const batch = await repository.findOwned(actor.userId, batchId);
    if (!batch) throw createAiImportBatchNotFoundError();
    if (batch.status !== 'draft') throw createBatchNotDraftError(batch.status);
    const firstPlan = planApply(
      await repository.items(batchId),
      await locations.definitions(batch.workspaceId),
    );
    if (firstPlan.apply.length === 0) throw createNoValidItemsError();
    const geocoded = await geocode(firstPlan);

    const { response, joinedMapId } = await db.transaction(async (tx) => {
      const locked = await repository.lockOwned(actor.userId, batchId, tx);
      if (!locked) throw createAiImportBatchNotFoundError();
      if (locked.status !== 'draft') throw createBatchNotDraftError(locked.status);
      const stored = await repository.items(batchId, tx);
      const plan = planApply(stored, await locations.definitions(locked.workspaceId, tx));
      if (plan.apply.length === 0) throw createNoValidItemsError();

      const geocoding = applyGeocoding(plan, geocoded);
      const { applied, locationOf } = await writeLocations(tx, locked.workspaceId, plan);
      const locationIds = [...new Set(plan.apply.map((_planned, index) => locationOf(index)))];
      const joinedMapId = await joinFinderMap(tx, locked, locationIds);
      await queueGeocoding?.(tx, locked.workspaceId, actor.userId);
      await repository.updateItems(itemUpdates(plan, stored, geocoding.located, locationOf), tx);
      const processId = await recordProcess(
        tx,
        { actor, batchId, workspaceId: locked.workspaceId, startedAt, plan },
        { applied, geocoding, joinedMapId },
      );
      await repository.recount(batchId, { status: 'imported', applyProcessId: processId }, tx);
      const after = await repository.findOwned(actor.userId, batchId, tx);
      const response: ImportBatchResponse = {
        process: { id: processId, type: APPLY_PROCESS_TYPE, status: 'completed' },
        batch: {
          id: batchId,
          status: 'imported',
          imported_items: after?.importedItems ?? plan.apply.length,
          failed_items: after?.failedItems ?? plan.failed.length,
        },
        next_action: 'review_locations',
      };
      return { response, joinedMapId };
    });
    await changes.workspaceChanged(batch.workspaceId);
    if (joinedMapId !== null) await changes.mapChanged(joinedMapId);
    return response;
  }

  return { importBatch };
}

export type AiImportApplyService = ReturnType<typeof createAiImportApplyService>;
