// Oracles for the byte-for-byte tests of the streamed lists: each list read by one plain select,
// paged by limit and offset, and rendered through its payload function, as the routes answered
// before they streamed. The streaming code is not used, so the two can disagree; locations are
// rendered by the service's single read (Drizzle rows rendered in JavaScript), which shares the
// field list with the streamed list but not its SQL rendering or its byte rewriting.
import { and, asc, eq, ilike, isNull, or, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../src/db/client.ts';
import { toAdminUserPayload } from '../../src/modules/admin/users/users.admin.schemas.ts';
import { createLocationsRepository } from '../../src/modules/locations/locations.repository.ts';
import { locationsTable } from '../../src/modules/locations/locations.table.ts';
import { toSetPayload } from '../../src/modules/sets/sets.schemas.ts';
import { setsTable } from '../../src/modules/sets/sets.table.ts';
import { toTagPayload } from '../../src/modules/tags/tags.schemas.ts';
import { tagsTable } from '../../src/modules/tags/tags.table.ts';
import { usersTable } from '../../src/modules/users/users.table.ts';

export interface PageQuery {
  limit?: number;
  offset?: number;
}

async function selectPage<Row>(
  db: Database,
  table: PgTable & { id: PgColumn },
  where: SQL | undefined,
  { limit, offset = 0 }: PageQuery,
): Promise<Row[]> {
  const query = db.select().from(table).where(where).orderBy(asc(table.id)).offset(offset).$dynamic();
  return (await (limit === undefined ? query : query.limit(limit))) as Row[];
}

/** A workspace's tags or sets, ordered by id. */
export async function unstreamedNamed(
  db: Database,
  resource: 'tags' | 'sets',
  workspaceId: number,
  page: PageQuery = {},
) {
  if (resource === 'tags') {
    const rows = await selectPage<typeof tagsTable.$inferSelect>(
      db,
      tagsTable,
      eq(tagsTable.workspaceId, workspaceId),
      page,
    );
    return rows.map(toTagPayload);
  }
  const rows = await selectPage<typeof setsTable.$inferSelect>(
    db,
    setsTable,
    eq(setsTable.workspaceId, workspaceId),
    page,
  );
  return rows.map(toSetPayload);
}

/** The admin list of users not deleted, by id; `q` matches a part of the name or email, any case. */
export async function unstreamedAdminUsers(db: Database, q: string | undefined, page: PageQuery = {}) {
  const pattern = `%${q}%`;
  const where = and(
    isNull(usersTable.deletedAt),
    q === undefined ? undefined : or(ilike(usersTable.name, pattern), ilike(usersTable.email, pattern)),
  );
  const rows = await selectPage<typeof usersTable.$inferSelect>(db, usersTable, where, page);
  return rows.map(toAdminUserPayload);
}

/**
 * A workspace's locations by id, as the single read (GET /locations/:id) renders them: Drizzle
 * rows rendered in JavaScript, where the streamed list renders them in PostgreSQL.
 */
export async function unstreamedLocations(db: Database, workspaceId: number, page: PageQuery = {}) {
  const rows = await selectPage<typeof locationsTable.$inferSelect>(
    db,
    locationsTable,
    eq(locationsTable.workspaceId, workspaceId),
    page,
  );
  return createLocationsRepository(db).findPayloads(rows.map((row) => row.id));
}
