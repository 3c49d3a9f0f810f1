// Finders of a workspace (docs/api.md, Finders): members of the workspace read and write them; the
// admin area acts across every workspace. This service owns the pairing with the backing map
// (created with the finder, deleted with it, in the same transaction), the wholesale replacement of
// the finder's own locations (only locations of its workspace), and telling the change listener
// once a write has committed.
import type { Logger } from 'pino';
import type { Database, Executor } from '../../db/client.ts';
import { holdingLocksWhile } from '../../db/locks.ts';
import type { Actor } from '../../lib/actor.ts';
import { randomToken } from '../../lib/crypto.ts';
import { type FieldErrors, throwFieldErrors } from '../../lib/errors.ts';
import type { Listed, Page } from '../../lib/pagination.ts';
import type { FinderChangeListener } from '../../lib/payload-changes.ts';
import type { MapsRepository } from '../maps/maps.repository.ts';
import { assertWorkspaceAccess } from '../workspaces/workspaces.access.ts';
import { createWorkspaceNotFoundError } from '../workspaces/workspaces.errors.ts';
import { createFinderNotFoundError, foreignLocationsErrors, foreignRuleIdsErrors } from './finders.errors.ts';
import type { FindersRepository, FinderValues } from './finders.repository.ts';
import {
  type CreateFinderBody,
  type FinderPayload,
  type FinderRuleInput,
  toFinderPayload,
  type UpdateFinderBody,
} from './finders.schemas.ts';
import type { FinderRow } from './finders.table.ts';

/** Reads of one finder or list see one snapshot, though rows and locations come in two queries. */
const snapshot = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

export interface FindersServiceDeps {
  db: Database;
  finders: FindersRepository;
  maps: MapsRepository;
  events: FinderChangeListener;
  /** Removes the finder's published files (pointer first); throws when the storage fails. */
  removePublishedFiles(token: string): Promise<void>;
  logger: Logger;
}

/**
 * Runs a listener after the commit. The write stands whatever the listener does, so its
 * failure is logged rather than answered (a client would retry a saved change).
 */
export function notifyListener(logger: Logger, what: string, finderId: number, run: () => Promise<void>) {
  return run().catch((error: unknown) =>
    logger.warn({ err: error, finderId, event: what }, 'finder change listener failed'),
  );
}

export function createFindersService({
  db,
  finders,
  maps,
  events,
  removePublishedFiles,
  logger,
}: FindersServiceDeps) {
  async function payloadsOf(rows: FinderRow[], tx: Executor): Promise<FinderPayload[]> {
    const ids = rows.map((row) => row.id);
    const locations = await finders.locationsOf(ids, tx);
    const ruleIds = await finders.ruleIdsOf(ids, tx);
    return rows.map((row) =>
      toFinderPayload(row, locations.get(row.id) ?? [], ruleIds.get(row.id) ?? { tagIds: [], setIds: [] }),
    );
  }

  /** The rule's tags and sets that are not the workspace's, as field errors. */
  async function ruleErrors(workspaceId: number, rule: FinderRuleInput, tx: Executor): Promise<FieldErrors> {
    const refused: { path: string; what: 'tag' | 'set'; id: number }[] = [];
    for (const [kind, what, ids] of [
      ['tags', 'tag', rule.tagIds],
      ['sets', 'set', rule.setIds],
    ] as const) {
      const found = await finders.ruleIdsInWorkspace(kind, workspaceId, [...new Set(ids)], tx);
      ids.forEach((id, index) => {
        if (!found.has(id)) refused.push({ path: `rule.${what}_ids.${index}`, what, id });
      });
    }
    return foreignRuleIdsErrors(refused);
  }

  const payloadOf = async (row: FinderRow, tx: Executor) => (await payloadsOf([row], tx))[0]!;

  return {
    /** A `workspaceId` the actor cannot reach answers 404 `Workspace not found.`, not an empty list. */
    async list(actor: Actor, workspaceId: number | undefined, page: Page): Promise<Listed<FinderPayload>> {
      if (workspaceId !== undefined) await assertWorkspaceAccess(db, actor, workspaceId);
      return db.transaction(async (tx) => {
        const { rows, total } = await finders.list(actor, workspaceId, page, tx);
        return { items: await payloadsOf(rows, tx), total };
      }, snapshot);
    },

    async get(actor: Actor, id: number): Promise<FinderPayload> {
      return db.transaction(async (tx) => {
        const row = await finders.find(actor, id, {}, tx);
        if (!row) throw createFinderNotFoundError();
        return payloadOf(row, tx);
      }, snapshot);
    },

    async getByToken(actor: Actor, token: string): Promise<FinderPayload> {
      return db.transaction(async (tx) => {
        const row = await finders.findByToken(actor, token, tx);
        if (!row) throw createFinderNotFoundError();
        return payloadOf(row, tx);
      }, snapshot);
    },

    /**
     * The finder and its backing map in one transaction: the map has the finder's name, is
     * owned by the caller and linked to the finder's workspace, as POST /maps would make it.
     */
    async create(actor: Actor, body: CreateFinderBody): Promise<FinderPayload> {
      return db.transaction(async (tx) => {
        // Key-share locked: the workspace cannot go before the finder is written into it.
        const reachable = await maps.accessibleWorkspaceIds(actor, [body.workspace_id], tx);
        if (!reachable.has(body.workspace_id)) throw createWorkspaceNotFoundError();
        const map = await maps.insert({ title: body.name, description: null }, tx);
        await maps.insertLinks('owners', map.id, [actor.userId], tx);
        await maps.insertLinks('workspaces', map.id, [body.workspace_id], tx);
        if (body.rule) throwFieldErrors(await ruleErrors(body.workspace_id, body.rule, tx));
        let row = await finders.insert(
          { workspaceId: body.workspace_id, name: body.name, token: randomToken(), mapId: map.id },
          tx,
        );
        if (body.rule) {
          await finders.replaceRule(row.id, body.rule, tx);
          row = (await finders.find(actor, row.id, {}, tx))!;
        }
        return payloadOf(row, tx);
      });
    },

    /**
     * Fields absent from the body stay; a present list replaces the stored one wholesale.
     * Locations must belong to the finder's workspace; any other id refuses the whole update.
     * The finder's row lock orders concurrent updates.
     */
    async update(actor: Actor, id: number, body: UpdateFinderBody): Promise<FinderPayload> {
      const payload = await db.transaction(async (tx) => {
        const finder = await finders.find(actor, id, { lock: true }, tx);
        if (!finder) throw createFinderNotFoundError();
        let refused: number[] = [];
        if (body.locations !== undefined && body.locations.length > 0) {
          const ids = body.locations.map((location) => location.locationId);
          const found = await finders.locationIdsInWorkspace(finder.workspaceId, ids, tx);
          refused = ids.filter((locationId) => !found.has(locationId)).sort((a, b) => a - b);
        }
        // Every refused id at once, the locations' and the rule's.
        throwFieldErrors({
          ...foreignLocationsErrors(refused),
          ...(body.rule ? await ruleErrors(finder.workspaceId, body.rule, tx) : {}),
        });
        const values: Partial<FinderValues> = {};
        if (body.name !== undefined) values.name = body.name;
        if (body.settings !== undefined) values.settings = body.settings;
        if (body.advanced_refinements !== undefined) values.advancedRefinements = body.advanced_refinements;
        if (body.authorized_urls !== undefined) values.authorizedUrls = body.authorized_urls;
        if (body.rule !== undefined) await finders.replaceRule(id, body.rule, tx);
        const row = await finders.update(id, values, tx);
        if (body.locations !== undefined) await finders.replaceLocations(id, body.locations, tx);
        return payloadOf(row, tx);
      });
      await notifyListener(logger, 'changed', id, () => events.finderChanged(id));
      return payload;
    },

    /**
     * The published files go first: the CDN must not keep serving a deleted finder, and a
     * storage that fails (503/502) leaves the finder in place for a retry. They go while the
     * finder's row is locked, as a publish holds it while it writes them (so none lands after
     * the removal). Then the finder and its backing map together; its locations, keys and
     * publications by cascade.
     */
    async delete(actor: Actor, id: number): Promise<void> {
      const finder = await db.transaction(async (tx) => {
        const row = await finders.find(actor, id, { lock: true }, tx);
        if (!row) throw createFinderNotFoundError();
        await holdingLocksWhile(tx, () => removePublishedFiles(row.token));
        await finders.delete(id, tx);
        if (row.mapId !== null) await maps.delete(row.mapId, tx);
        return row;
      });
      await notifyListener(logger, 'deleted', id, () => events.finderDeleted(id, finder.token));
    },
  };
}

export type FindersService = ReturnType<typeof createFindersService>;
