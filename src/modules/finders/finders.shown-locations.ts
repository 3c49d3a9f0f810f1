// Which locations a finder shows (docs/api.md, Finders): its own list, its backing map's direct
// locations, the locations of the map's sets and the locations of its workspace its rule
// matches, each once. The one statement of the rule, read
// by the location list's finder filter (finderLocationsOf), the analytics' check of a batch's
// location ids and the widget payload (its locations, in their order, and the workspaces its
// cache depends on).
import { type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.ts';
import { createFinderNotFoundError } from './finders.errors.ts';
import type { FindersRepository } from './finders.repository.ts';

const value = (id: number | SQL): SQL => (typeof id === 'number' ? sql`${id}::int` : id);

/**
 * Rows (location_id, pos), each location the finder shows once; `pos` is its sort_order when it
 * is one of the finder's own, else null. The ids are numbers or SQL (a subquery of the
 * statement); a map id of null leaves the map's branches out. With `among` (a few ids), only
 * those of them: each branch then probes its primary key or location index for those ids rather
 * than reading all of a finder's locations, so the check costs the same at 100,000 locations
 * as at ten.
 *
 * The rule's branch reads the finder's row (no rows when rule_countries is null: no rule) and
 * the locations of its workspace, each meeting every criterion the rule has: one of its tags,
 * one of its sets, a country among its spellings. A criterion whose tags (sets) were all
 * deleted still holds (rule_has_tags) and matches nothing.
 */
export function shownLocations(
  finderId: number | SQL,
  mapId: number | SQL | null,
  among?: readonly number[],
): SQL {
  const amongIds = (column: string) =>
    among === undefined ? sql`` : sql` and ${sql.raw(column)} = any(${sql.param(among)}::int[])`;
  const own = sql`select fl.location_id, fl.sort_order as pos from finder_locations fl
    where fl.finder_id = ${value(finderId)}${amongIds('fl.location_id')}`;
  const rule = sql`select l.id, null from finders rf
      join locations l on l.workspace_id = rf.workspace_id
    where rf.id = ${value(finderId)} and rf.rule_countries is not null${amongIds('l.id')}
      and (cardinality(rf.rule_countries) = 0 or lower(btrim(l.country)) = any(rf.rule_country_names))
      and (not rf.rule_has_tags or exists (select from location_tags lt
        join finder_rule_tags rt on rt.tag_id = lt.tag_id and rt.finder_id = rf.id where lt.location_id = l.id))
      and (not rf.rule_has_sets or exists (select from location_sets ls
        join finder_rule_sets rs on rs.set_id = ls.set_id and rs.finder_id = rf.id where ls.location_id = l.id))`;
  const branches =
    mapId === null
      ? sql`${own}
    union all
    ${rule}`
      : sql`${own}
    union all
    ${rule}
    union all
    select ml.location_id, null from map_locations ml where ml.map_id = ${value(mapId)}${amongIds('ml.location_id')}
    union all
    select ls.location_id, null from location_sets ls
      join map_sets ms on ms.set_id = ls.set_id where ms.map_id = ${value(mapId)}${amongIds('ls.location_id')}`;
  return sql`select location_id, min(pos) as pos from (${branches}) u group by location_id`;
}

/**
 * The locations finder `finderId` shows, for the location list's `finder_id` filter; a finder
 * the actor cannot reach is a 404.
 */
export function finderLocationsOf(finders: Pick<FindersRepository, 'findAccessibleRef'>) {
  return async (actor: Actor, finderId: number): Promise<SQL> => {
    const finder = await finders.findAccessibleRef(actor, finderId);
    if (!finder) throw createFinderNotFoundError();
    return shownLocations(finder.id, finder.mapId);
  };
}
