// Holiday calendars of a workspace: members read and write them (docs/api.md, Holiday
// calendars). A write and its assignments run in one transaction; the workspace's finder
// payloads change with them, as their special days do.
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { type FieldErrors, throwFieldErrors } from '../../lib/errors.ts';
import type { Listed, Page } from '../../lib/pagination.ts';
import type { PayloadChangeListener } from '../../lib/payload-changes.ts';
import { assertWorkspaceAccess } from '../workspaces/workspaces.access.ts';
import {
  createHolidayCalendarNotFoundError,
  createTooManyHolidayCalendarsError,
} from './holiday-calendars.errors.ts';
import type { HolidayCalendarsRepository } from './holiday-calendars.repository.ts';
import {
  type CreateHolidayCalendarBody,
  type HolidayCalendarPayload,
  MAX_WORKSPACE_CALENDARS,
  toHolidayCalendarPayload,
  type UpdateHolidayCalendarBody,
} from './holiday-calendars.schemas.ts';
import type { HolidayCalendarRow } from './holiday-calendars.table.ts';

interface HolidayCalendarsServiceDeps {
  db: Database;
  calendars: HolidayCalendarsRepository;
  changes: PayloadChangeListener;
}

export function createHolidayCalendarsService({ db, calendars, changes }: HolidayCalendarsServiceDeps) {
  async function payloadOf(row: HolidayCalendarRow, tx?: Parameters<HolidayCalendarsRepository['find']>[2]) {
    const assignments = await calendars.assignments([row.id], tx);
    return toHolidayCalendarPayload(row, assignments.get(row.id)!);
  }

  /** Writes the assignments a body names, after checking they are of the calendar's workspace. */
  async function writeAssignments(
    tx: Parameters<HolidayCalendarsRepository['find']>[2],
    row: HolidayCalendarRow,
    body: UpdateHolidayCalendarBody,
  ): Promise<void> {
    const errors: FieldErrors = {};
    if (body.location_ids !== undefined) {
      const found = await calendars.countLocations(row.workspaceId, body.location_ids, tx);
      if (found !== body.location_ids.length) {
        errors.location_ids = ['Every location must be a location of the calendar’s workspace.'];
      }
    }
    if (body.set_ids !== undefined) {
      const found = await calendars.countSets(row.workspaceId, body.set_ids, tx);
      if (found !== body.set_ids.length)
        errors.set_ids = ['Every set must be a set of the calendar’s workspace.'];
    }
    throwFieldErrors(errors);
    if (body.location_ids !== undefined) await calendars.replaceLocations(row.id, body.location_ids, tx);
    if (body.set_ids !== undefined) await calendars.replaceSets(row.id, body.set_ids, tx);
  }

  return {
    async list(
      actor: Actor,
      workspaceId: number | undefined,
      page: Page,
    ): Promise<Listed<HolidayCalendarPayload>> {
      if (workspaceId !== undefined) await assertWorkspaceAccess(db, actor, workspaceId);
      const { rows, total } = await calendars.list(actor, workspaceId, page);
      const assignments = await calendars.assignments(rows.map((row) => row.id));
      return { items: rows.map((row) => toHolidayCalendarPayload(row, assignments.get(row.id)!)), total };
    },

    async get(actor: Actor, id: number): Promise<HolidayCalendarPayload> {
      const row = await calendars.find(actor, id);
      if (!row) throw createHolidayCalendarNotFoundError();
      return payloadOf(row);
    },

    async create(actor: Actor, body: CreateHolidayCalendarBody): Promise<HolidayCalendarPayload> {
      await assertWorkspaceAccess(db, actor, body.workspace_id);
      // A name another calendar of the workspace has answers 422 on `name` (src/unique-constraints.ts).
      const created = await db.transaction(async (tx) => {
        if ((await calendars.countLocked(body.workspace_id, tx)) >= MAX_WORKSPACE_CALENDARS) {
          throw createTooManyHolidayCalendarsError(MAX_WORKSPACE_CALENDARS);
        }
        const row = await calendars.insert(
          { workspaceId: body.workspace_id, name: body.name, days: body.days },
          tx,
        );
        await writeAssignments(tx, row, body);
        return payloadOf(row, tx);
      });
      await changes.workspaceChanged(body.workspace_id);
      return created;
    },

    async update(actor: Actor, id: number, body: UpdateHolidayCalendarBody): Promise<HolidayCalendarPayload> {
      const found = await calendars.find(actor, id);
      if (!found) throw createHolidayCalendarNotFoundError();
      const updated = await db.transaction(async (tx) => {
        const row = await calendars.update(id, { name: body.name, days: body.days }, tx);
        // Deleted since it was found.
        if (!row) throw createHolidayCalendarNotFoundError();
        await writeAssignments(tx, row, body);
        return payloadOf(row, tx);
      });
      await changes.workspaceChanged(found.workspaceId);
      return updated;
    },

    async delete(actor: Actor, id: number): Promise<void> {
      const workspaceId = await calendars.delete(actor, id);
      if (workspaceId === undefined) throw createHolidayCalendarNotFoundError();
      await changes.workspaceChanged(workspaceId);
    },
  };
}

export type HolidayCalendarsService = ReturnType<typeof createHolidayCalendarsService>;
