// Locations for tests, created through the API as a client would.
import type { UserRow } from '../../src/modules/users/users.table.ts';
import type { TestContext } from '../helpers/app.ts';
import { bearer, createUser, tokenFor } from './users.ts';
import { firstWorkspaceId } from './workspaces.ts';

export interface OwnerWithLocation {
  user: UserRow;
  token: string;
  workspaceId: number;
  locationId: number;
}

/** A new user, their first workspace, a token, and one location in it named `title`. */
export async function createOwnerWithLocation(ctx: TestContext, title = 'Shop'): Promise<OwnerWithLocation> {
  const user = await createUser(ctx.deps);
  const token = await tokenFor(ctx.deps, user);
  const workspaceId = await firstWorkspaceId(ctx.deps, user);
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/locations',
    headers: bearer(token),
    payload: { workspace_id: workspaceId, title },
  });
  if (created.statusCode !== 201)
    throw new Error(`location not created: ${created.statusCode} ${created.body}`);
  return { user, token, workspaceId, locationId: created.json().id };
}
