// Request and response shapes of /tags and /admin/tags.
import { z } from 'zod';
import type { TagRow } from './tags.table.ts';

export const tagSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  workspace_id: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TagPayload = z.infer<typeof tagSchema>;

export const toTagPayload = (row: TagRow): TagPayload => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  workspace_id: row.workspaceId,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
