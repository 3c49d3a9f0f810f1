// Request and response shapes of /sets and /admin/sets.
import { z } from 'zod';
import type { SetRow } from './sets.table.ts';

export const setSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  workspace_id: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SetPayload = z.infer<typeof setSchema>;

export const toSetPayload = (row: SetRow): SetPayload => ({
  id: row.id,
  name: row.name,
  workspace_id: row.workspaceId,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
