// Workspaces for tests, written through the app's repository.
import { asc, eq } from 'drizzle-orm';
import type { Deps } from '../../src/deps.ts';
import type { UserRow } from '../../src/modules/users/users.table.ts';
import { createWorkspacesRepository } from '../../src/modules/workspaces/workspaces.repository.ts';
import { workspaceMembersTable } from '../../src/modules/workspaces/workspaces.table.ts';
import { createUser, tokenFor } from './users.ts';

/** The first workspace createUser made for the user (they own it). */
export async function firstWorkspaceId(deps: Deps, user: UserRow): Promise<number> {
  const [row] = await deps.db
    .select({ id: workspaceMembersTable.workspaceId })
    .from(workspaceMembersTable)
    .where(eq(workspaceMembersTable.userId, user.id))
    .orderBy(asc(workspaceMembersTable.workspaceId))
    .limit(1);
  if (!row) throw new Error(`user ${user.id} has no workspace`);
  return row.id;
}

/** Adds the user to a workspace, as an invite would. */
export async function addMember(
  deps: Deps,
  workspaceId: number,
  user: UserRow,
  role: 'owner' | 'member' = 'member',
) {
  await deps.db.insert(workspaceMembersTable).values({ workspaceId, userId: user.id, role });
}

export async function createWorkspace(deps: Deps, owner: UserRow, name = 'Extra workspace'): Promise<number> {
  const row = await createWorkspacesRepository(deps.db).insertWithMember(name, {
    userId: owner.id,
    role: 'owner',
  });
  return row.id;
}

/**
 * The people of a workspace-content test: the owner of a workspace, a plain member of it, a
 * stranger with a workspace of their own, and an admin, each with a token.
 */
export async function createCast(deps: Deps) {
  const owner = await createUser(deps);
  const workspaceId = await firstWorkspaceId(deps, owner);
  const member = await createUser(deps);
  await addMember(deps, workspaceId, member);
  const stranger = await createUser(deps);
  return {
    owner,
    ownerToken: await tokenFor(deps, owner),
    workspaceId,
    member,
    memberToken: await tokenFor(deps, member),
    stranger,
    strangerToken: await tokenFor(deps, stranger),
    strangerWorkspaceId: await firstWorkspaceId(deps, stranger),
    adminToken: await tokenFor(deps, await createUser(deps, { role: 'admin' })),
  };
}
