// Processes (tracked long-running work) and their append-only event log. A process dies with
// its workspace; it outlives its user (set null), so a workspace's history stays readable
// after a member leaves. Events die with their process. related_type / related_id point at
// the originating row of any table, so they carry no foreign key.
import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { oneOf, timestamps, timestamptz } from '../../db/columns.ts';
import { usersTable } from '../users/users.table.ts';
import { workspacesTable } from '../workspaces/workspaces.table.ts';

export const processStatuses = [
  'pending',
  'running',
  'waiting_review',
  'completed',
  'failed',
  'cancelled',
] as const;
export type ProcessStatus = (typeof processStatuses)[number];

export const terminalProcessStatuses = [
  'completed',
  'failed',
  'cancelled',
] as const satisfies readonly ProcessStatus[];
export type TerminalProcessStatus = (typeof terminalProcessStatuses)[number];

export const processesTable = pgTable(
  'processes',
  {
    id: serial().primaryKey(),
    workspaceId: integer().references(() => workspacesTable.id, { onDelete: 'cascade' }),
    userId: integer().references(() => usersTable.id, { onDelete: 'set null' }),
    /** e.g. `ai_location_import_generate`, `ai_location_import_apply`, `csv_import` (docs/api.md, Process). */
    type: text(),
    status: text({ enum: processStatuses }).notNull().default('pending'),
    /** 0-100. */
    progressPercent: integer(),
    currentStep: text(),
    /** Result data on completion (returned as `result_summary`). */
    summary: jsonb().$type<Record<string, unknown>>(),
    errorMessage: text(),
    queue: text(),
    attempts: integer().notNull().default(0),
    relatedType: text(),
    relatedId: integer(),
    inputPayload: jsonb().$type<Record<string, unknown>>(),
    /** The pg-boss job id of the latest dispatch. */
    jobId: text(),
    /**
     * Refreshed every few seconds by the worker running the process; a running process whose
     * heartbeat stops was left by a worker that died (the supervisor in processes.service.ts).
     */
    heartbeatAt: timestamptz(),
    startedAt: timestamptz(),
    finishedAt: timestamptz(),
    ...timestamps,
  },
  (t) => [
    index('processes_workspace_id_created_at_idx').on(t.workspaceId, t.createdAt),
    index('processes_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('processes_status_idx').on(t.status),
    oneOf('processes_status_check', t.status, processStatuses),
    check('processes_progress_check', sql`${t.progressPercent} between 0 and 100`),
  ],
);

/** Immutable, append-only; a process's events are ordered by ascending id. */
export const processEventsTable = pgTable(
  'process_events',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    processId: integer()
      .notNull()
      .references(() => processesTable.id, { onDelete: 'cascade' }),
    /** e.g. `step`, `progress`, `error`. */
    type: text(),
    status: text(),
    progressPercent: integer(),
    step: text(),
    message: text(),
    payload: jsonb().$type<Record<string, unknown>>(),
    ...timestamps,
  },
  (t) => [index('process_events_process_id_id_idx').on(t.processId, t.id)],
);

export type ProcessRow = typeof processesTable.$inferSelect;
export type ProcessEventRow = typeof processEventsTable.$inferSelect;
