// Queries over pending invites. An invite is found only by the SHA-256 of its token: the hash
// is the unique index key, so a lookup compares no secret byte by byte in the application.
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { workspaceMembersTable, workspacesTable } from '../workspaces/workspaces.table.ts';
import { type InviteRow, invitesTable, type NewInvite } from './invites.table.ts';

export function createInvitesRepository(db: Executor) {
  return {
    async findWorkspace(id: number, tx: Executor = db): Promise<{ id: number; name: string } | undefined> {
      const [row] = await tx
        .select({ id: workspacesTable.id, name: workspacesTable.name })
        .from(workspacesTable)
        .where(eq(workspacesTable.id, id));
      return row;
    },

    async insert(values: NewInvite, tx: Executor = db): Promise<InviteRow> {
      const [row] = await tx.insert(invitesTable).values(values).returning();
      return row!;
    },

    async deleteById(id: number, tx: Executor = db): Promise<void> {
      await tx.delete(invitesTable).where(eq(invitesTable.id, id));
    },

    /** Earlier invites of the same email (case-insensitively) to the same workspace. */
    async deleteOlder(invite: InviteRow, tx: Executor = db): Promise<number> {
      const rows = await tx
        .delete(invitesTable)
        .where(
          and(
            eq(invitesTable.workspaceId, invite.workspaceId),
            sql`lower(${invitesTable.email}) = lower(${invite.email})`,
            lt(invitesTable.id, invite.id),
          ),
        )
        .returning({ id: invitesTable.id });
      return rows.length;
    },

    /** The invitee joins the invite's workspace as a plain member. */
    async addMember(workspaceId: number, userId: number, tx: Executor = db): Promise<void> {
      await tx.insert(workspaceMembersTable).values({ workspaceId, userId, role: 'member' });
    },

    /**
     * The live invite with this token hash and its workspace's name. With `lock`, the row is
     * locked until the transaction ends, so two registrations with one token cannot both win.
     */
    async findLive(
      tokenHash: string,
      now: Date,
      options: { lock?: boolean } = {},
      tx: Executor = db,
    ): Promise<(InviteRow & { workspaceName: string }) | undefined> {
      const query = tx
        .select({ invite: invitesTable, workspaceName: workspacesTable.name })
        .from(invitesTable)
        .innerJoin(workspacesTable, eq(workspacesTable.id, invitesTable.workspaceId))
        .where(and(eq(invitesTable.tokenHash, tokenHash), gt(invitesTable.expiresAt, now)));
      const [row] = await (options.lock ? query.for('update', { of: invitesTable }) : query);
      return row && { ...row.invite, workspaceName: row.workspaceName };
    },

    /** Invites past their expiry (the hourly purge). */
    async deleteExpired(now: Date, tx: Executor = db): Promise<number> {
      const rows = await tx
        .delete(invitesTable)
        .where(lt(invitesTable.expiresAt, sql`${now.toISOString()}::timestamptz`))
        .returning({ id: invitesTable.id });
      return rows.length;
    },
  };
}

export type InvitesRepository = ReturnType<typeof createInvitesRepository>;
