// Request and response shapes of /workspaces and /admin/workspaces.
import { z } from 'zod';
import type { WorkspaceRow } from './workspaces.table.ts';

export const workspaceNameSchema = z
  .string({ error: 'The name field is required.' })
  .trim()
  .min(1, 'The name field is required.')
  .max(255, 'The name may not be greater than 255 characters.');

export const workspaceBodySchema = z.object({ name: workspaceNameSchema });
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
