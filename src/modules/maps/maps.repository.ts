// Queries over maps and their links. Id lists travel as one array parameter (`= any($1)`,
// `unnest($1)`), so a statement's size does not grow with the list and a long list cannot hit
// PostgreSQL's parameter limit. Loading is set-based: a fixed number of queries for any number
// of maps.
import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import type { Page } from '../../lib/pagination.ts';
import { locationSetsTable } from '../locations/locations.relations.table.ts';
import { locationsTable } from '../locations/locations.table.ts';
import { setsTable } from '../sets/sets.table.ts';
import { usersTable } from '../users/users.table.ts';
import { accessibleWorkspace } from '../workspaces/workspaces.access.ts';
import { workspaceMembersTable, workspacesTable } from '../workspaces/workspaces.table.ts';
import type { MapLinks } from './maps.schemas.ts';
import {
  type MapRow,
  mapLocationsTable,
  mapOwnersTable,
  mapSetsTable,
  mapsTable,
  mapWorkspacesTable,
} from './maps.table.ts';

/** `column = any($1::int[])` with the whole list as one parameter. */
const anyOf = (column: AnyPgColumn, ids: readonly number[]): SQL =>
  sql`${column} = any(${sql.param(ids)}::int[])`;

/** The link tables by the body field that fills them; each row is (map_id, other id). */
const linkTables = {
  owners: { table: mapOwnersTable, mapId: mapOwnersTable.mapId, otherId: mapOwnersTable.userId },
  workspaces: {
    table: mapWorkspacesTable,
    mapId: mapWorkspacesTable.mapId,
    otherId: mapWorkspacesTable.workspaceId,
  },
  sets: { table: mapSetsTable, mapId: mapSetsTable.mapId, otherId: mapSetsTable.setId },
  locations: {
    table: mapLocationsTable,
    mapId: mapLocationsTable.mapId,
    otherId: mapLocationsTable.locationId,
  },
} as const;

export type MapLinkKind = keyof typeof linkTables;

export interface MapListFilter {
  ownerId: number;
  workspaceId?: number;
}

export type MapValues = Pick<typeof mapsTable.$inferInsert, 'title' | 'description'>;

function groupBy<T, V>(rows: T[], key: (row: T) => number, value: (row: T) => V): Map<number, V[]> {
  const groups = new Map<number, V[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(value(row));
    else groups.set(k, [value(row)]);
  }
  return groups;
}

export function createMapsRepository(db: Executor) {
  /** Maps the user owns (map_owners). */
  const ownedBy = (userId: number): SQL =>
    inArray(
      mapsTable.id,
      db.select({ id: mapOwnersTable.mapId }).from(mapOwnersTable).where(eq(mapOwnersTable.userId, userId)),
    );

  const listWhere = (filter: MapListFilter): SQL => {
    const conditions = [ownedBy(filter.ownerId)];
    if (filter.workspaceId !== undefined) {
      conditions.push(
        inArray(
          mapsTable.id,
          db
            .select({ id: mapWorkspacesTable.mapId })
            .from(mapWorkspacesTable)
            .where(eq(mapWorkspacesTable.workspaceId, filter.workspaceId)),
        ),
      );
    }
    return and(...conditions)!;
  };

  /** Ids of `ids` found by `query` (already restricted to them). */
  const foundIds = async (query: Promise<{ id: number }[]>) => new Set((await query).map((row) => row.id));

  /** Links the map to `ids` (distinct, none linked yet) through one link table. */
  async function insertLinks(kind: MapLinkKind, mapId: number, ids: readonly number[], tx: Executor = db) {
    if (ids.length === 0) return;
    // Columns of every link table are (map_id, other id), in that order.
    await tx
      .insert(linkTables[kind].table)
      .select(sql`select ${mapId}::int, unnest(${sql.param(ids)}::int[])`);
  }

  return {
    /** The map when the user owns it; `lock` takes its row lock so concurrent updates queue up. */
    async findOwned(
      id: number,
      userId: number,
      options: { lock?: boolean } = {},
      tx: Executor = db,
    ): Promise<MapRow | undefined> {
      const query = tx
        .select()
        .from(mapsTable)
        .where(and(eq(mapsTable.id, id), ownedBy(userId)))
        .$dynamic();
      if (options.lock) query.for('update');
      const [row] = await query;
      return row;
    },

    async list(filter: MapListFilter, page: Page, tx: Executor = db): Promise<MapRow[]> {
      const query = tx
        .select()
        .from(mapsTable)
        .where(listWhere(filter))
        .orderBy(asc(mapsTable.id))
        .$dynamic();
      if (page.limit !== undefined) query.limit(page.limit);
      if (page.offset) query.offset(page.offset);
      return query;
    },

    async count(filter: MapListFilter, tx: Executor = db): Promise<number> {
      const [row] = await tx
        .select({ value: sql<number>`count(*)::int` })
        .from(mapsTable)
        .where(listWhere(filter));
      return row?.value ?? 0;
    },

    async insert(values: MapValues, tx: Executor = db): Promise<MapRow> {
      const [row] = await tx.insert(mapsTable).values(values).returning();
      return row!;
    },

    /** Sets the given fields and always `updated_at`: a change of links alone updates the map too. */
    async update(id: number, values: Partial<MapValues>, tx: Executor = db): Promise<MapRow | undefined> {
      const [row] = await tx
        .update(mapsTable)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(mapsTable.id, id))
        .returning();
      return row;
    },

    /** Deletes the map if the user owns it; links go by cascade, finders keep living (set null). */
    async deleteOwned(id: number, userId: number, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .delete(mapsTable)
        .where(and(eq(mapsTable.id, id), ownedBy(userId)))
        .returning({ id: mapsTable.id });
      return rows.length > 0;
    },

    /** Deletes the map whoever owns it (a finder's backing map goes with its finder). */
    async delete(id: number, tx: Executor = db): Promise<void> {
      await tx.delete(mapsTable).where(eq(mapsTable.id, id));
    },

    /** The ids linked to the map through one link table. */
    async linkedIds(kind: MapLinkKind, mapId: number, tx: Executor = db): Promise<Set<number>> {
      const link = linkTables[kind];
      return foundIds(tx.select({ id: link.otherId }).from(link.table).where(eq(link.mapId, mapId)));
    },

    insertLinks,

    /** Sync: afterwards the map is linked to exactly `ids` (distinct) through this link table. */
    async replaceLinks(kind: MapLinkKind, mapId: number, ids: readonly number[], tx: Executor = db) {
      const link = linkTables[kind];
      await tx.delete(link.table).where(eq(link.mapId, mapId));
      await insertLinks(kind, mapId, ids, tx);
    },

    /**
     * Every link of the given maps in five queries, whatever their number. Owners that are
     * soft-deleted users are left out: the account is gone for everyone else.
     */
    async loadLinks(mapIds: readonly number[], tx: Executor = db): Promise<MapLinks> {
      if (mapIds.length === 0) {
        return {
          owners: new Map(),
          workspaces: new Map(),
          locations: new Map(),
          sets: new Map(),
          setLocations: new Map(),
        };
      }
      const [owners, workspaces, locations, sets, setLocations] = await Promise.all([
        tx
          .select({ mapId: mapOwnersTable.mapId, id: mapOwnersTable.userId })
          .from(mapOwnersTable)
          .innerJoin(usersTable, and(eq(usersTable.id, mapOwnersTable.userId), isNull(usersTable.deletedAt)))
          .where(anyOf(mapOwnersTable.mapId, mapIds))
          .orderBy(asc(mapOwnersTable.userId)),
        tx
          .select({ mapId: mapWorkspacesTable.mapId, id: mapWorkspacesTable.workspaceId })
          .from(mapWorkspacesTable)
          .where(anyOf(mapWorkspacesTable.mapId, mapIds))
          .orderBy(asc(mapWorkspacesTable.workspaceId)),
        tx
          .select({ mapId: mapLocationsTable.mapId, id: mapLocationsTable.locationId })
          .from(mapLocationsTable)
          .where(anyOf(mapLocationsTable.mapId, mapIds))
          .orderBy(asc(mapLocationsTable.locationId)),
        tx
          .select({ mapId: mapSetsTable.mapId, id: setsTable.id, title: setsTable.name })
          .from(mapSetsTable)
          .innerJoin(setsTable, eq(setsTable.id, mapSetsTable.setId))
          .where(anyOf(mapSetsTable.mapId, mapIds))
          .orderBy(asc(setsTable.id)),
        tx
          .select({ setId: locationSetsTable.setId, id: locationSetsTable.locationId })
          .from(locationSetsTable)
          .where(
            inArray(
              locationSetsTable.setId,
              tx
                .select({ id: mapSetsTable.setId })
                .from(mapSetsTable)
                .where(anyOf(mapSetsTable.mapId, mapIds)),
            ),
          )
          .orderBy(asc(locationSetsTable.locationId)),
      ]);
      return {
        owners: groupBy(
          owners,
          (row) => row.mapId,
          (row) => row.id,
        ),
        workspaces: groupBy(
          workspaces,
          (row) => row.mapId,
          (row) => row.id,
        ),
        locations: groupBy(
          locations,
          (row) => row.mapId,
          (row) => row.id,
        ),
        sets: groupBy(
          sets,
          (row) => row.mapId,
          ({ id, title }) => ({ id, title }),
        ),
        setLocations: groupBy(
          setLocations,
          (row) => row.setId,
          (row) => row.id,
        ),
      };
    },

    // The checks of a create or update body. Each takes a key-share lock on what it finds, so
    // nothing it accepted can be deleted before the transaction commits the links to it.

    /**
     * Of `ids`, the users (not deleted) the actor may make owners: the actor, users who share
     * a workspace with the actor, and, on update, the map's current owners. Anyone else is
     * refused exactly like an id that does not exist, so the answer says nothing about which
     * user ids exist.
     */
    async eligibleOwnerIds(
      actor: Actor,
      ids: readonly number[],
      mapId: number | undefined,
      tx: Executor = db,
    ): Promise<Set<number>> {
      const mine = sql`select ${workspaceMembersTable.workspaceId} from ${workspaceMembersTable} where ${workspaceMembersTable.userId} = ${actor.userId}`;
      const colleague = sql`exists (select 1 from ${workspaceMembersTable} where ${workspaceMembersTable.userId} = ${usersTable.id} and ${workspaceMembersTable.workspaceId} in (${mine}))`;
      const currentOwner =
        mapId === undefined
          ? sql`false`
          : sql`exists (select 1 from ${mapOwnersTable} where ${mapOwnersTable.mapId} = ${mapId} and ${mapOwnersTable.userId} = ${usersTable.id})`;
      return foundIds(
        tx
          .select({ id: usersTable.id })
          .from(usersTable)
          .where(
            and(
              anyOf(usersTable.id, ids),
              isNull(usersTable.deletedAt),
              sql`(${usersTable.id} = ${actor.userId} or ${colleague} or ${currentOwner})`,
            ),
          )
          .for('key share', { of: usersTable }),
      );
    },

    /** Of `ids`, the workspaces the actor is a member of. */
    async accessibleWorkspaceIds(
      actor: Actor,
      ids: readonly number[],
      tx: Executor = db,
    ): Promise<Set<number>> {
      return foundIds(
        tx
          .select({ id: workspacesTable.id })
          .from(workspacesTable)
          .where(and(anyOf(workspacesTable.id, ids), accessibleWorkspace(workspacesTable.id, actor)))
          .for('key share'),
      );
    },

    /** Of `ids`, the sets in a workspace the actor is a member of. */
    async accessibleSetIds(actor: Actor, ids: readonly number[], tx: Executor = db): Promise<Set<number>> {
      return foundIds(
        tx
          .select({ id: setsTable.id })
          .from(setsTable)
          .where(and(anyOf(setsTable.id, ids), accessibleWorkspace(setsTable.workspaceId, actor)))
          .for('key share'),
      );
    },

    /** Of `ids`, the locations in a workspace the actor is a member of. */
    async accessibleLocationIds(
      actor: Actor,
      ids: readonly number[],
      tx: Executor = db,
    ): Promise<Set<number>> {
      return foundIds(
        tx
          .select({ id: locationsTable.id })
          .from(locationsTable)
          .where(and(anyOf(locationsTable.id, ids), accessibleWorkspace(locationsTable.workspaceId, actor)))
          .for('key share'),
      );
    },
  };
}

export type MapsRepository = ReturnType<typeof createMapsRepository>;
