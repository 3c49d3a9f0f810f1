// The statements of a bulk change (docs/api.md, Locations: bulk changes), each set-based: the
// locations it changes, locked until it commits, and each action over all of them in one
// statement. The caller runs them in one transaction.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Executor, idArray, idsFromText, rawRows } from '../../../db/client.ts';
import { setsTable } from '../../sets/sets.table.ts';
import { tagsTable } from '../../tags/tags.table.ts';
import { locationSetsTable, locationTagsTable } from '../locations.relations.table.ts';
import { filterCondition, type LocationFilter } from '../locations.repository.ts';
import { locationsTable } from '../locations.table.ts';
import type { BulkAction } from './locations.bulk.schemas.ts';

const l = locationsTable;

/** The link table of each kind of target, and its column naming the target. */
const LINKS = {
  tag: { table: locationTagsTable, target: sql.identifier('tag_id'), targets: tagsTable },
  set: { table: locationSetsTable, target: sql.identifier('set_id'), targets: setsTable },
} as const;
type TargetKind = keyof typeof LINKS;

/** What an action did: the locations it changed, and the stored images of those it deleted. */
export interface BulkOutcome {
  affected: number;
  orphanedImageKeys: string[];
}

/**
 * The locations of `filter` (and of `ids` when given), in id order, at most `limit`, locked until
 * the transaction ends as the action will lock them anyway (FOR UPDATE to delete, FOR NO KEY
 * UPDATE to change their links and updated_at), so that the action finds every one of them.
 * Locked in id order: a second bulk change over some of the same locations waits for the first
 * rather than deadlocking with it, and then sees what the first left.
 */
export async function lockLocations(
  tx: Executor,
  action: BulkAction,
  filter: LocationFilter,
  ids: readonly number[] | undefined,
  limit: number,
): Promise<number[]> {
  const where = and(
    filterCondition(filter),
    ids === undefined ? undefined : sql`${l.id} = any(${idArray(ids)})`,
  );
  const strength = sql.raw(action === 'delete' ? 'update' : 'no key update');
  const [row] = await rawRows(
    tx,
    sql`select string_agg(id::text, ',' order by id)
      from (select ${l.id} from ${l} where ${where} order by ${l.id} limit ${limit} for ${strength} of ${l}) locked`,
  );
  return idsFromText(row?.[0]);
}

/** Whether the tag or set is one of the workspace's; it is then locked against deletion until the transaction ends. */
export async function lockTarget(
  tx: Executor,
  kind: TargetKind,
  id: number,
  workspaceId: number,
): Promise<boolean> {
  const table = LINKS[kind].targets;
  const rows = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.id, id), eq(table.workspaceId, workspaceId)))
    .for('key share');
  return rows.length === 1;
}

/** Deletes the locations (their links go with them); answers the keys of their stored images. */
async function deleteAll(tx: Executor, ids: readonly number[]): Promise<BulkOutcome> {
  const [row] = await tx.execute<{ affected: number; keys: string[] }>(sql`
    with gone as (delete from ${l} where ${l.id} = any(${idArray(ids)}) returning ${l.imageKey})
    select count(*)::int as affected, array_remove(array_agg(image_key), null) as keys from gone`);
  return { affected: row?.affected ?? 0, orphanedImageKeys: row?.keys ?? [] };
}

/**
 * Links the locations to the target, or unlinks them; the locations whose links changed get a
 * new updated_at, as a PUT of their tags or sets gives them. Answers how many changed.
 */
async function relinkAll(
  tx: Executor,
  ids: readonly number[],
  kind: TargetKind,
  targetId: number,
  linking: boolean,
): Promise<BulkOutcome> {
  const { table, target } = LINKS[kind];
  const changed: SQL = linking
    ? sql`insert into ${table as PgTable} (location_id, ${target})
        select id, ${targetId} from unnest(${idArray(ids)}) as id
        on conflict do nothing returning location_id`
    : sql`delete from ${table as PgTable}
        where ${target} = ${targetId} and location_id = any(${idArray(ids)}) returning location_id`;
  const [row] = await tx.execute<{ affected: number }>(sql`
    with changed as (${changed}),
    touched as (update ${l} set updated_at = now() where ${l.id} in (select location_id from changed) returning 1)
    select count(*)::int as affected from touched`);
  return { affected: row?.affected ?? 0, orphanedImageKeys: [] };
}

/** Applies the action to every one of the locations (already locked), in one statement. */
export function applyBulkAction(
  tx: Executor,
  action: BulkAction,
  ids: readonly number[],
  targetId: number | undefined,
): Promise<BulkOutcome> {
  if (ids.length === 0) return Promise.resolve({ affected: 0, orphanedImageKeys: [] });
  switch (action) {
    case 'delete':
      return deleteAll(tx, ids);
    case 'add_tag':
    case 'remove_tag':
      return relinkAll(tx, ids, 'tag', targetId!, action === 'add_tag');
    case 'add_set':
    case 'remove_set':
      return relinkAll(tx, ids, 'set', targetId!, action === 'add_set');
  }
}
