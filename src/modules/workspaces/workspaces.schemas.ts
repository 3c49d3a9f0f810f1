// Request and response shapes of /workspaces and /admin/workspaces.

import { z } from 'zod';
import { paginationQuerySchema } from '../../lib/pagination.ts';
import { nameSchema, queryIdSchema } from '../../lib/schemas.ts';
import type { WorkspaceRow } from './workspaces.table.ts';

export const workspaceBodySchema = z.object({ name: nameSchema });
export type WorkspaceBody = z.infer<typeof workspaceBodySchema>;

export const workspaceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const workspaceDetailSchema = workspaceSchema.extend({ members_count: z.number().int() });

export const toWorkspacePayload = (row: WorkspaceRow) => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/** `?workspace_id=` of the workspace-content lists (docs/api.md, Conventions), with optional paging. */
export const workspaceListQuerySchema = paginationQuerySchema.extend({
  workspace_id: queryIdSchema('workspace id').optional(),
});
