// Queries over processes and their append-only event log. Every write that changes a process
// appends an event and notifies listeners (channel `process_events`, payload
// `{process_id, event_id}`) in the same statement or transaction, so the NOTIFY leaves at
// commit, together with the rows it announces. A change locks the process row before its event
// takes an id, so the events of one process commit in id order: a reader that has seen event N
// never meets a smaller id later.
import { and, asc, desc, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { countWhere } from '../../db/lists.ts';
import { fetchPage, type Page } from '../../lib/pagination.ts';
import { workspaceMembersTable } from '../workspaces/workspaces.table.ts';
import {
  type ProcessEventRow,
  type ProcessRow,
  type ProcessStatus,
  processEventsTable,
  processesTable,
} from './processes.table.ts';

/** The LISTEN/NOTIFY channel of process events. */
export const PROCESS_EVENTS_CHANNEL = 'process_events';

export type NewProcess = typeof processesTable.$inferInsert;
export type NewProcessEvent = Omit<typeof processEventsTable.$inferInsert, 'processId'>;

/** What a change sets; `now` stamps the database's clock, `increment` adds one. */
export interface ProcessChangeSet {
  status?: ProcessStatus;
  progressPercent?: number | null;
  currentStep?: string | null;
  summary?: Record<string, unknown> | null;
  errorMessage?: string | null;
  jobId?: string | null;
  attempts?: 'increment';
  startedAt?: 'now' | null;
  finishedAt?: 'now' | null;
  heartbeatAt?: 'now' | null;
}

/** Which process a change applies to; a change that matches nothing writes nothing. */
export interface ProcessChangeWhere {
  id: number;
  /** Only from these statuses. */
  from?: readonly ProcessStatus[];
  /** Only while this pg-boss job is the process's latest dispatch. */
  jobId?: string;
  /**
   * Also from `running` when the heartbeat is older than this many seconds (a worker that
   * died), next to the statuses of `from`.
   */
  orStaleRunningSeconds?: number;
}

/** The event a change appends; status, progress and step are copied from the changed row. */
export interface ProcessEventInput {
  type: string;
  message?: string | null;
  payload?: Record<string, unknown> | null;
}

export interface ChangedProcess {
  id: number;
  status: ProcessStatus;
  attempts: number;
  eventId: number;
}

/** Who may see a process: its own user, in a workspace they are still a member of (or none). */
export function visibleTo(userId: number): SQL {
  return and(
    eq(processesTable.userId, userId),
    or(
      isNull(processesTable.workspaceId),
      sql`${processesTable.workspaceId} in (select ${workspaceMembersTable.workspaceId} from ${workspaceMembersTable} where ${workspaceMembersTable.userId} = ${userId})`,
    ),
  )!;
}

export interface ProcessFilter {
  workspaceId?: number | undefined;
  status?: ProcessStatus | undefined;
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

function setClauses(set: ProcessChangeSet): SQL[] {
  const clauses: SQL[] = [sql`updated_at = now()`];
  const stamp = (column: string, value: 'now' | null | undefined) => {
    if (value === undefined) return;
    clauses.push(value === 'now' ? sql`${sql.raw(column)} = now()` : sql`${sql.raw(column)} = null`);
  };
  if (set.status !== undefined) clauses.push(sql`status = ${set.status}`);
  if (set.progressPercent !== undefined) clauses.push(sql`progress_percent = ${set.progressPercent}`);
  if (set.currentStep !== undefined) clauses.push(sql`current_step = ${set.currentStep}`);
  if (set.summary !== undefined) clauses.push(sql`summary = ${json(set.summary)}::jsonb`);
  if (set.errorMessage !== undefined) clauses.push(sql`error_message = ${set.errorMessage}`);
  if (set.jobId !== undefined) clauses.push(sql`job_id = ${set.jobId}`);
  if (set.attempts === 'increment') clauses.push(sql`attempts = attempts + 1`);
  stamp('started_at', set.startedAt);
  stamp('finished_at', set.finishedAt);
  stamp('heartbeat_at', set.heartbeatAt);
  return clauses;
}

function whereClause(where: ProcessChangeWhere): SQL {
  const conditions: SQL[] = [sql`id = ${where.id}`];
  if (where.jobId !== undefined) conditions.push(sql`job_id = ${where.jobId}`);
  const statuses: SQL[] = [];
  if (where.from && where.from.length > 0)
    statuses.push(
      sql`status in (${sql.join(
        where.from.map((status) => sql`${status}`),
        sql`, `,
      )})`,
    );
  if (where.orStaleRunningSeconds !== undefined) {
    statuses.push(
      sql`(status = 'running' and coalesce(heartbeat_at, updated_at) < now() - make_interval(secs => ${where.orStaleRunningSeconds}))`,
    );
  }
  if (statuses.length > 0) conditions.push(sql`(${sql.join(statuses, sql` or `)})`);
  return sql.join(conditions, sql` and `);
}

export function createProcessesRepository(db: Executor) {
  return {
    /**
     * A process with its first events, in the caller's transaction (the caller opens one), and
     * the notification of its last event; answers the process id.
     */
    async insertWithEvents(process: NewProcess, events: NewProcessEvent[], tx: Executor): Promise<number> {
      const [row] = await tx.insert(processesTable).values(process).returning({ id: processesTable.id });
      const id = row!.id;
      if (events.length > 0) {
        const inserted = await tx
          .insert(processEventsTable)
          .values(events.map((event) => ({ ...event, processId: id })))
          .returning({ id: processEventsTable.id });
        const last = Math.max(...inserted.map((event) => event.id));
        await tx.execute(
          sql`select pg_notify(${PROCESS_EVENTS_CHANNEL}, json_build_object('process_id', ${id}::int, 'event_id', ${last}::bigint)::text)`,
        );
      }
      return id;
    },

    /**
     * One change of a process, its event and the notification, as a single statement (atomic on
     * its own; in the caller's transaction when given). Undefined when no process matched.
     */
    async change(
      where: ProcessChangeWhere,
      set: ProcessChangeSet,
      event: ProcessEventInput,
      tx: Executor = db,
    ): Promise<ChangedProcess | undefined> {
      const rows = await tx.execute<{
        id: number;
        status: ProcessStatus;
        attempts: number;
        event_id: string;
      }>(sql`
        with p as (
          update processes set ${sql.join(setClauses(set), sql`, `)}
          where ${whereClause(where)}
          returning id, status, attempts, progress_percent, current_step
        ), e as (
          insert into process_events (process_id, type, status, progress_percent, step, message, payload)
          select p.id, ${event.type}, p.status, p.progress_percent, p.current_step, ${event.message ?? null},
            ${json(event.payload)}::jsonb
          from p
          returning id, process_id
        )
        select p.id, p.status, p.attempts, e.id as event_id,
          pg_notify(${PROCESS_EVENTS_CHANNEL}, json_build_object('process_id', e.process_id, 'event_id', e.id)::text)
        from p join e on e.process_id = p.id`);
      const [row] = rows;
      if (!row) return undefined;
      return { id: row.id, status: row.status, attempts: row.attempts, eventId: Number(row.event_id) };
    },

    /** Sets columns without an event (bookkeeping no reader follows: the job id of a dispatch). */
    async setJob(id: number, jobId: string, queue: string, tx: Executor = db): Promise<void> {
      await tx.update(processesTable).set({ jobId, queue }).where(eq(processesTable.id, id));
    },

    async find(id: number, tx: Executor = db): Promise<ProcessRow | undefined> {
      const [row] = await tx.select().from(processesTable).where(eq(processesTable.id, id));
      return row;
    },

    async findVisible(userId: number, id: number, tx: Executor = db): Promise<ProcessRow | undefined> {
      const [row] = await tx
        .select()
        .from(processesTable)
        .where(and(eq(processesTable.id, id), visibleTo(userId)));
      return row;
    },

    /** Locks the row for the rest of the caller's transaction. */
    async lockVisible(userId: number, id: number, tx: Executor): Promise<ProcessRow | undefined> {
      const [row] = await tx
        .select()
        .from(processesTable)
        .where(and(eq(processesTable.id, id), visibleTo(userId)))
        .for('update');
      return row;
    },

    async list(
      userId: number,
      filter: ProcessFilter,
      page: Page,
      tx: Executor = db,
    ): Promise<{ rows: ProcessRow[]; total?: number }> {
      const where = and(
        visibleTo(userId),
        filter.workspaceId === undefined ? undefined : eq(processesTable.workspaceId, filter.workspaceId),
        filter.status === undefined ? undefined : eq(processesTable.status, filter.status),
      );
      const query = tx
        .select()
        .from(processesTable)
        .where(where)
        .orderBy(desc(processesTable.createdAt), desc(processesTable.id))
        .$dynamic();
      return fetchPage(query, page, () => countWhere(tx, processesTable, where));
    },

    /** Events of a process after an id, oldest first (the SSE hub reads through this). */
    async eventsAfter(
      processId: number,
      afterId: number,
      limit: number,
      tx: Executor = db,
    ): Promise<ProcessEventRow[]> {
      return tx
        .select()
        .from(processEventsTable)
        .where(and(eq(processEventsTable.processId, processId), gt(processEventsTable.id, afterId)))
        .orderBy(asc(processEventsTable.id))
        .limit(limit);
    },

    /**
     * Events after a cursor for each of several processes, in one query (the SSE hub reads
     * through this), ordered by process then id; at most `limit` rows in all.
     */
    async eventsAfterMany(
      cursors: { processId: number; afterId: number }[],
      limit: number,
      tx: Executor = db,
    ): Promise<ProcessEventRow[]> {
      if (cursors.length === 0) return [];
      return tx
        .select()
        .from(processEventsTable)
        .where(
          or(
            ...cursors.map((cursor) =>
              and(
                eq(processEventsTable.processId, cursor.processId),
                gt(processEventsTable.id, cursor.afterId),
              ),
            ),
          ),
        )
        .orderBy(asc(processEventsTable.processId), asc(processEventsTable.id))
        .limit(limit);
    },

    /** The status of each given process (missing ones are absent). */
    async statuses(ids: number[], tx: Executor = db): Promise<Map<number, ProcessStatus>> {
      if (ids.length === 0) return new Map();
      const rows = await tx
        .select({ id: processesTable.id, status: processesTable.status })
        .from(processesTable)
        .where(inArray(processesTable.id, ids));
      return new Map(rows.map((row) => [row.id, row.status]));
    },

    /** Refreshes the heartbeat of a running process; false when it is no longer running. */
    async heartbeat(id: number, tx: Executor = db): Promise<boolean> {
      const rows = await tx.execute<{ id: number }>(sql`
        update processes set heartbeat_at = now() where id = ${id} and status = 'running' returning id`);
      return rows.length > 0;
    },

    /** Running processes whose heartbeat is older than `seconds`: their worker died. */
    async staleRunning(
      seconds: number,
      tx: Executor = db,
    ): Promise<Pick<ProcessRow, 'id' | 'type' | 'queue' | 'jobId' | 'attempts'>[]> {
      return tx
        .select({
          id: processesTable.id,
          type: processesTable.type,
          queue: processesTable.queue,
          jobId: processesTable.jobId,
          attempts: processesTable.attempts,
        })
        .from(processesTable)
        .where(
          and(
            eq(processesTable.status, 'running'),
            sql`coalesce(${processesTable.heartbeatAt}, ${processesTable.updatedAt}) < now() - make_interval(secs => ${seconds})`,
          ),
        )
        .orderBy(asc(processesTable.id))
        .limit(100);
    },
  };
}

export type ProcessesRepository = ReturnType<typeof createProcessesRepository>;
