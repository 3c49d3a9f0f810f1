// Column helpers shared by every table, so timestamps look the same everywhere.
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, timestamp } from 'drizzle-orm/pg-core';

export const timestamptz = (name?: string) =>
  name
    ? timestamp(name, { withTimezone: true, mode: 'date' })
    : timestamp({ withTimezone: true, mode: 'date' });

export const timestamps = {
  createdAt: timestamptz().notNull().defaultNow(),
  updatedAt: timestamptz()
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/**
 * A CHECK that a text column holds one of a fixed list: `text({enum})` only types the column
 * in TypeScript, this makes PostgreSQL refuse anything else too.
 */
export const oneOf = (name: string, column: AnyPgColumn, values: readonly string[]) =>
  check(
    name,
    sql`${column} in (${sql.raw(values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', '))})`,
  );
