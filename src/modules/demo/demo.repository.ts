// The one query of the demo page: a finder's name by its public token.
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { findersTable } from '../finders/finders.table.ts';

export function createDemoRepository(db: Executor) {
  return {
    async findFinderName(token: string): Promise<string | undefined> {
      const [row] = await db
        .select({ name: findersTable.name })
        .from(findersTable)
        .where(eq(findersTable.token, token));
      return row?.name;
    },
  };
}
