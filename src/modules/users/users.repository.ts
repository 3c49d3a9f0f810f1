// Queries over users. Emails are compared case-insensitively among users not deleted.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type UserRow, usersTable } from './users.table.ts';

export type NewUser = typeof usersTable.$inferInsert;

export function createUsersRepository(db: Executor) {
  return {
    async findActiveById(id: number, tx: Executor = db): Promise<UserRow | undefined> {
      const [row] = await tx
        .select()
        .from(usersTable)
        .where(and(eq(usersTable.id, id), isNull(usersTable.deletedAt)));
      return row;
    },

    async findActiveByEmail(email: string, tx: Executor = db): Promise<UserRow | undefined> {
      const [row] = await tx
        .select()
        .from(usersTable)
        .where(and(sql`lower(${usersTable.email}) = lower(${email})`, isNull(usersTable.deletedAt)));
      return row;
    },

    async insert(values: NewUser, tx: Executor = db): Promise<UserRow> {
      const [row] = await tx.insert(usersTable).values(values).returning();
      return row!;
    },

    async update(id: number, values: Partial<NewUser>, tx: Executor = db): Promise<UserRow | undefined> {
      const [row] = await tx.update(usersTable).set(values).where(eq(usersTable.id, id)).returning();
      return row;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
