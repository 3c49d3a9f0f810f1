// Request and response shapes of /maps (docs/api.md, Map and Maps). Link lists are arrays of ids;
// `null` means the same as `[]` (null clears), and an absent key on update leaves the links alone,
// so the update body keeps `undefined` and `null` apart.
import { z } from 'zod';
import { paginationQuerySchema } from '../../lib/pagination.ts';
import { queryIdSchema } from '../../lib/schemas.ts';
import type { MapRow } from './maps.table.ts';

/** Ids one link list may hold, so one request stays one bounded set of statements. */
export const MAX_MAP_LINKS = 50_000;
const MAX_INTEGER = 2_147_483_647;

const missing = (input: unknown) => input === undefined || input === null;

const titleSchema = z
  .string({
    error: (issue) => (missing(issue.input) ? 'The title field is required.' : 'The title must be a string.'),
  })
  .trim()
  .min(1, 'The title field is required.')
  .max(255, 'The title may not be greater than 255 characters.');

const descriptionSchema = z
  .string({ error: 'The description must be a string or null.' })
  .max(65_535, 'The description may not be greater than 65535 characters.')
  .nullable();

/** A list of ids in a body: `null` and duplicates are accepted (normalized by the service). */
function idListSchema(field: string) {
  const idMessage = `Every entry of ${field} must be a positive integer id.`;
  return z
    .array(z.int({ error: idMessage }).positive(idMessage).max(MAX_INTEGER, idMessage), {
      error: `The ${field} field must be an array of ids or null.`,
    })
    .max(MAX_MAP_LINKS, `The ${field} field may not have more than ${MAX_MAP_LINKS} entries.`)
    .nullable();
}

const linkFields = {
  description: descriptionSchema.optional(),
  sets: idListSchema('sets').optional(),
  locations: idListSchema('locations').optional(),
  owners: idListSchema('owners').optional(),
  workspaces: idListSchema('workspaces').optional(),
};

export const createMapBodySchema = z.object({ title: titleSchema, ...linkFields });
export type CreateMapBody = z.infer<typeof createMapBodySchema>;

export const updateMapBodySchema = z.object({ title: titleSchema.optional(), ...linkFields });
export type UpdateMapBody = z.infer<typeof updateMapBodySchema>;

export const listMapsQuerySchema = paginationQuerySchema.extend({
  workspace_id: queryIdSchema('workspace id').optional(),
});
export type ListMapsQuery = z.infer<typeof listMapsQuerySchema>;

export const mapSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  sets: z.array(z.object({ id: z.number().int(), title: z.string(), locations: z.array(z.number().int()) })),
  locations: z.array(z.number().int()),
  owners: z.array(z.number().int()),
  workspaces: z.array(z.number().int()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type MapPayload = z.infer<typeof mapSchema>;

/** The links of a set of maps, each list sorted by id (see MapsRepository.loadLinks). */
export interface MapLinks {
  owners: Map<number, number[]>;
  workspaces: Map<number, number[]>;
  locations: Map<number, number[]>;
  sets: Map<number, { id: number; title: string }[]>;
  /** Location ids of each set reached by those maps. */
  setLocations: Map<number, number[]>;
}

export const toMapPayload = (row: MapRow, links: MapLinks): MapPayload => ({
  id: row.id,
  title: row.title,
  description: row.description,
  sets: (links.sets.get(row.id) ?? []).map((set) => ({
    id: set.id,
    title: set.title,
    locations: links.setLocations.get(set.id) ?? [],
  })),
  locations: links.locations.get(row.id) ?? [],
  owners: links.owners.get(row.id) ?? [],
  workspaces: links.workspaces.get(row.id) ?? [],
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
