// Queries over processes and their append-only event log.
import type { Executor } from '../../db/client.ts';
import { processEventsTable, processesTable } from './processes.table.ts';

export type NewProcess = typeof processesTable.$inferInsert;
export type NewProcessEvent = Omit<typeof processEventsTable.$inferInsert, 'processId'>;

export function createProcessesRepository(db: Executor) {
  return {
    /** A process with its first events, in the caller's transaction when given; answers its id. */
    async insertWithEvents(
      process: NewProcess,
      events: NewProcessEvent[],
      tx: Executor = db,
    ): Promise<number> {
      const [row] = await tx.insert(processesTable).values(process).returning({ id: processesTable.id });
      if (events.length > 0) {
        await tx.insert(processEventsTable).values(events.map((event) => ({ ...event, processId: row!.id })));
      }
      return row!.id;
    },
  };
}

export type ProcessesRepository = ReturnType<typeof createProcessesRepository>;
