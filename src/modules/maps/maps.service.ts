// Maps are owner-scoped (docs/api.md, Maps): a map is visible only to its owners, whatever
// workspaces it is linked to. This service owns what a create or update body may link (sets,
// locations and workspaces the caller can reach, existing users as owners) and the one transaction
// in which a map and its links are written.

import type { Database, Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import type { FieldErrors } from '../../lib/errors.ts';
import type { Listed, Page } from '../../lib/pagination.ts';
import type { PayloadChangeListener } from '../../lib/payload-changes.ts';
import { createMapNotFoundError, createMapValidationError } from './maps.errors.ts';
import type { MapLinkKind, MapsRepository, MapValues } from './maps.repository.ts';
import { type CreateMapBody, type MapPayload, toMapPayload, type UpdateMapBody } from './maps.schemas.ts';
import type { MapRow } from './maps.table.ts';

const linkKinds: readonly MapLinkKind[] = ['owners', 'workspaces', 'sets', 'locations'];

/** The link lists of a body: absent stays undefined, null is [], duplicates collapse, sorted. */
type LinkLists = Partial<Record<MapLinkKind, number[]>>;

function linkListsOf(body: UpdateMapBody): LinkLists {
  const lists: LinkLists = {};
  for (const kind of linkKinds) {
    const ids = body[kind];
    if (ids !== undefined) lists[kind] = [...new Set(ids ?? [])].sort((a, b) => a - b);
  }
  return lists;
}

/** "7, 9" or "7, 9, ... and 12 more": a refused list can be long. */
function describeIds(ids: number[]): string {
  const shown = ids.slice(0, 10).join(', ');
  return ids.length > 10 ? `${shown} and ${ids.length - 10} more` : shown;
}

// Unknown ids and ids the caller may not reach get the same message: another user's resource
// answers exactly as a missing one (docs/api.md, Maps).
const refusedMessages: Record<MapLinkKind, (ids: number[]) => string> = {
  owners: (ids) => `These users do not exist or share no workspace with you: ${describeIds(ids)}.`,
  workspaces: (ids) => `These workspaces do not exist or you are not a member of them: ${describeIds(ids)}.`,
  sets: (ids) =>
    `These sets do not exist or are not in a workspace you are a member of: ${describeIds(ids)}.`,
  locations: (ids) =>
    `These locations do not exist or are not in a workspace you are a member of: ${describeIds(ids)}.`,
};

/** Reads of one map or list see one snapshot, though rows and links come in several queries. */
const snapshot = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

interface MapsServiceDeps {
  db: Database;
  maps: MapsRepository;
  /** Told after an update or delete: a finder's backing map decides which locations it shows. */
  changes: PayloadChangeListener;
}

export interface MapListQuery {
  workspaceId?: number;
}

export function createMapsService({ db, maps, changes }: MapsServiceDeps) {
  async function payloadsOf(rows: MapRow[], tx: Executor): Promise<MapPayload[]> {
    const links = await maps.loadLinks(
      rows.map((row) => row.id),
      tx,
    );
    return rows.map((row) => toMapPayload(row, links));
  }

  async function payloadOf(row: MapRow, tx: Executor): Promise<MapPayload> {
    const [payload] = await payloadsOf([row], tx);
    return payload!;
  }

  /** Ids of `ids` the caller may link through `kind`. */
  function acceptable(
    tx: Executor,
    actor: Actor,
    kind: MapLinkKind,
    ids: number[],
    mapId: number | undefined,
  ): Promise<Set<number>> {
    switch (kind) {
      case 'owners':
        return maps.eligibleOwnerIds(actor, ids, mapId, tx);
      case 'workspaces':
        return maps.accessibleWorkspaceIds(actor, ids, tx);
      case 'sets':
        return maps.accessibleSetIds(actor, ids, tx);
      case 'locations':
        return maps.accessibleLocationIds(actor, ids, tx);
    }
  }

  /**
   * Throws 400 naming every list that holds an id the caller may not link. On update, a set,
   * location or workspace already linked to the map stays acceptable, so a co-owner who is not
   * a member of its workspace can send back the lists GET gave them.
   */
  async function checkLinks(tx: Executor, actor: Actor, lists: LinkLists, mapId?: number): Promise<void> {
    const errors: FieldErrors = {};
    if (lists.owners?.length === 0) errors.owners = ['The owners field must contain at least one user.'];
    for (const kind of linkKinds) {
      const ids = lists[kind];
      if (!ids || ids.length === 0) continue;
      const accepted = await acceptable(tx, actor, kind, ids, mapId);
      let refused = ids.filter((id) => !accepted.has(id));
      if (refused.length > 0 && mapId !== undefined && kind !== 'owners') {
        const linked = await maps.linkedIds(kind, mapId, tx);
        refused = refused.filter((id) => !linked.has(id));
      }
      if (refused.length > 0) errors[kind] = [refusedMessages[kind](refused)];
    }
    if (Object.keys(errors).length > 0) throw createMapValidationError(errors);
  }

  return {
    async list(actor: Actor, query: MapListQuery, page: Page): Promise<Listed<MapPayload>> {
      const filter = { ownerId: actor.userId, workspaceId: query.workspaceId };
      return db.transaction(async (tx) => {
        const items = await payloadsOf(await maps.list(filter, page, tx), tx);
        if (!page.paged) return { items };
        return { items, total: await maps.count(filter, tx) };
      }, snapshot);
    },

    async get(actor: Actor, id: number): Promise<MapPayload> {
      return db.transaction(async (tx) => {
        const row = await maps.findOwned(id, actor.userId, {}, tx);
        if (!row) throw createMapNotFoundError();
        return payloadOf(row, tx);
      }, snapshot);
    },

    /**
     * Without `owners` the caller owns the new map. With `owners`, the caller may leave
     * themselves out: the map is then created for the others, and the caller cannot see it.
     */
    async create(actor: Actor, body: CreateMapBody): Promise<MapPayload> {
      const lists = linkListsOf(body);
      lists.owners ??= [actor.userId];
      return db.transaction(async (tx) => {
        await checkLinks(tx, actor, lists);
        const row = await maps.insert({ title: body.title, description: body.description ?? null }, tx);
        for (const kind of linkKinds) await maps.insertLinks(kind, row.id, lists[kind] ?? [], tx);
        return payloadOf(row, tx);
      });
    },

    /**
     * Fields absent from the body stay as they are; a present link list (null meaning [])
     * replaces the map's links of that kind. `owners` may not become empty, but may leave the
     * caller out, who then loses access. The map's row lock orders concurrent updates.
     */
    async update(actor: Actor, id: number, body: UpdateMapBody): Promise<MapPayload> {
      const lists = linkListsOf(body);
      const payload = await db.transaction(async (tx) => {
        if (!(await maps.findOwned(id, actor.userId, { lock: true }, tx))) throw createMapNotFoundError();
        await checkLinks(tx, actor, lists, id);
        const values: Partial<MapValues> = {};
        if (body.title !== undefined) values.title = body.title;
        if (body.description !== undefined) values.description = body.description;
        const row = await maps.update(id, values, tx);
        for (const kind of linkKinds) {
          const ids = lists[kind];
          if (ids !== undefined) await maps.replaceLinks(kind, id, ids, tx);
        }
        return payloadOf(row!, tx);
      });
      await changes.mapChanged(id);
      return payload;
    },

    /** Links go by cascade; a finder backed by the map keeps living without it (map_id set null). */
    async delete(actor: Actor, id: number): Promise<void> {
      if (!(await maps.deleteOwned(id, actor.userId))) throw createMapNotFoundError();
      await changes.mapChanged(id);
    },
  };
}

export type MapsService = ReturnType<typeof createMapsService>;
