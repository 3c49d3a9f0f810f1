// Request and response shapes of /sets and /admin/sets.
import { z } from 'zod';
import { bodyIdSchema } from '../../lib/http.ts';
import type { SetRow } from './sets.table.ts';

export const setNameSchema = z
  .string({ error: 'The name field is required.' })
  .trim()
  .min(1, 'The name field is required.')
  .max(255, 'The name may not be greater than 255 characters.');

export const createSetBodySchema = z.object({
  name: setNameSchema,
  workspace_id: bodyIdSchema('workspace id'),
});
export type CreateSetBody = z.infer<typeof createSetBodySchema>;

export const updateSetBodySchema = z.object({ name: setNameSchema });

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
