// Queries over holiday calendars and their assignments. The reads an actor starts from (list,
// find, delete) are filtered through `accessibleWorkspace`, so a calendar of a workspace the
// actor cannot reach reads as missing; the others take a calendar the service found that way.
import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Executor, idArray, type Transaction } from '../../db/client.ts';
import { countWhere } from '../../db/lists.ts';
import { advisoryXactLock } from '../../db/locks.ts';
import type { Actor } from '../../lib/actor.ts';
import { fetchPage, type Page } from '../../lib/pagination.ts';
import { locationsTable } from '../locations/locations.table.ts';
import { setsTable } from '../sets/sets.table.ts';
import { accessibleWorkspace, listedWorkspace } from '../workspaces/workspaces.access.ts';
import type { CalendarAssignments } from './holiday-calendars.schemas.ts';
import {
  type HolidayCalendarRow,
  holidayCalendarLocationsTable,
  holidayCalendarSetsTable,
  holidayCalendarsTable,
} from './holiday-calendars.table.ts';

const c = holidayCalendarsTable;

export function createHolidayCalendarsRepository(db: Executor) {
  const reachable = (actor: Actor, id: number): SQL =>
    and(eq(c.id, id), accessibleWorkspace(c.workspaceId, actor))!;

  return {
    async list(
      actor: Actor,
      workspaceId: number | undefined,
      page: Page,
      tx: Executor = db,
    ): Promise<{ rows: HolidayCalendarRow[]; total?: number }> {
      const where = listedWorkspace(c.workspaceId, actor, workspaceId);
      const query = tx.select().from(c).where(where).orderBy(asc(c.name), asc(c.id)).$dynamic();
      return fetchPage(query, page, () => countWhere(tx, c, where));
    },

    async find(actor: Actor, id: number, tx: Executor = db): Promise<HolidayCalendarRow | undefined> {
      const [row] = await tx.select().from(c).where(reachable(actor, id));
      return row;
    },

    /** Each calendar's location and set ids, ascending. */
    async assignments(calendarIds: number[], tx: Executor = db): Promise<Map<number, CalendarAssignments>> {
      const result = new Map<number, CalendarAssignments>(
        calendarIds.map((id) => [id, { locationIds: [], setIds: [] }]),
      );
      if (calendarIds.length === 0) return result;
      const rows = (await tx.execute(sql`
        select calendar_id, array_agg(location_id order by location_id) as location_ids, null::int[] as set_ids
        from holiday_calendar_locations where calendar_id = any(${idArray(calendarIds)}) group by calendar_id
        union all
        select calendar_id, null, array_agg(set_id order by set_id)
        from holiday_calendar_sets where calendar_id = any(${idArray(calendarIds)}) group by calendar_id
      `)) as unknown as { calendar_id: number; location_ids: number[] | null; set_ids: number[] | null }[];
      for (const row of rows) {
        const entry = result.get(row.calendar_id)!;
        if (row.location_ids) entry.locationIds = row.location_ids;
        if (row.set_ids) entry.setIds = row.set_ids;
      }
      return result;
    },

    /**
     * How many calendars the workspace has, counted under a lock of the workspace's calendars
     * held to the end of `tx`: two creates do not both pass a bound on the count.
     */
    async countLocked(workspaceId: number, tx: Transaction): Promise<number> {
      await advisoryXactLock(tx, `holiday-calendars:${workspaceId}`);
      const [row] = await tx.select({ n: count() }).from(c).where(eq(c.workspaceId, workspaceId));
      return row?.n ?? 0;
    },

    async insert(
      values: Pick<HolidayCalendarRow, 'workspaceId' | 'name' | 'days'>,
      tx: Executor = db,
    ): Promise<HolidayCalendarRow> {
      const [row] = await tx.insert(c).values(values).returning();
      return row!;
    },

    async update(
      id: number,
      values: Partial<Pick<HolidayCalendarRow, 'name' | 'days'>>,
      tx: Executor = db,
    ): Promise<HolidayCalendarRow | undefined> {
      const [row] = await tx
        .update(c)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(c.id, id))
        .returning();
      return row;
    },

    /** The workspace of the deleted calendar, undefined when none was (its assignments go with it). */
    async delete(actor: Actor, id: number, tx: Executor = db): Promise<number | undefined> {
      const [row] = await tx.delete(c).where(reachable(actor, id)).returning({ workspaceId: c.workspaceId });
      return row?.workspaceId;
    },

    /** How many of these ids are locations of the workspace. */
    async countLocations(workspaceId: number, ids: number[], tx: Executor = db): Promise<number> {
      if (ids.length === 0) return 0;
      const [row] = await tx
        .select({ n: count() })
        .from(locationsTable)
        .where(and(eq(locationsTable.workspaceId, workspaceId), inArray(locationsTable.id, ids)));
      return row?.n ?? 0;
    },

    /** How many of these ids are sets of the workspace. */
    async countSets(workspaceId: number, ids: number[], tx: Executor = db): Promise<number> {
      if (ids.length === 0) return 0;
      const [row] = await tx
        .select({ n: count() })
        .from(setsTable)
        .where(and(eq(setsTable.workspaceId, workspaceId), inArray(setsTable.id, ids)));
      return row?.n ?? 0;
    },

    /** Replaces the calendar's locations in one statement each way, whatever their number. */
    async replaceLocations(calendarId: number, ids: number[], tx: Executor = db): Promise<void> {
      await tx
        .delete(holidayCalendarLocationsTable)
        .where(eq(holidayCalendarLocationsTable.calendarId, calendarId));
      if (ids.length === 0) return;
      await tx.execute(sql`insert into holiday_calendar_locations (calendar_id, location_id)
        select ${calendarId}, unnest(${idArray(ids)})`);
    },

    async replaceSets(calendarId: number, ids: number[], tx: Executor = db): Promise<void> {
      await tx.delete(holidayCalendarSetsTable).where(eq(holidayCalendarSetsTable.calendarId, calendarId));
      if (ids.length === 0) return;
      await tx.execute(sql`insert into holiday_calendar_sets (calendar_id, set_id)
        select ${calendarId}, unnest(${idArray(ids)})`);
    },
  };
}

export type HolidayCalendarsRepository = ReturnType<typeof createHolidayCalendarsRepository>;
