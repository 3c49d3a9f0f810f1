// Queries over workspaces and their members.
import type { Executor } from '../../db/client.ts';
import {
  type MemberRole,
  type WorkspaceRow,
  workspaceMembersTable,
  workspacesTable,
} from './workspaces.table.ts';

export function createWorkspacesRepository(db: Executor) {
  return {
    async insertWithMember(
      name: string,
      member: { userId: number; role: MemberRole },
      tx: Executor = db,
    ): Promise<WorkspaceRow> {
      const [workspace] = await tx.insert(workspacesTable).values({ name }).returning();
      await tx.insert(workspaceMembersTable).values({ workspaceId: workspace!.id, ...member });
      return workspace!;
    },
  };
}

export type WorkspacesRepository = ReturnType<typeof createWorkspacesRepository>;
