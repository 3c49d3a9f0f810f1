// Request and answer of POST /locations/bulk (docs/api.md, Locations: bulk changes).
import { z } from 'zod';
import { bodyIdSchema } from '../../../lib/schemas.ts';
import { searchSchema } from '../locations.schemas.ts';

export const BULK_ACTIONS = ['delete', 'add_tag', 'remove_tag', 'add_set', 'remove_set'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The actions that name a tag (`tag_id`), and those that name a set (`set_id`). */
const TAG_ACTIONS: readonly BulkAction[] = ['add_tag', 'remove_tag'];
const SET_ACTIONS: readonly BulkAction[] = ['add_set', 'remove_set'];
export const targetKindOf = (action: BulkAction): 'tag' | 'set' | undefined =>
  TAG_ACTIONS.includes(action) ? 'tag' : SET_ACTIONS.includes(action) ? 'set' : undefined;

/** The most ids one body may name: what a dashboard selects by hand, a body of about 110 KB. */
export const MAX_BULK_IDS = 10_000;
/**
 * The most locations a filter may select: as many as one CSV import writes, so that the
 * change's statements end well inside the API's statement timeout.
 */
export const MAX_BULK_LOCATIONS = 100_000;

const actionSchema = z.enum(BULK_ACTIONS, {
  error: (issue) =>
    issue.input === undefined
      ? 'The action field is required.'
      : `The action must be one of: ${BULK_ACTIONS.join(', ')}.`,
});

/**
 * The locations of `workspace_id` to change: `ids` names them, or `filter` selects them as
 * GET /locations?workspace_id&q&finder_id would list them; exactly one of the two. `tag_id` goes
 * with the tag actions and `set_id` with the set actions, and only with them: a target given to
 * another action is refused rather than ignored, as it may mean another action was meant.
 */
export const bulkLocationsBodySchema = z
  .object({
    workspace_id: bodyIdSchema('workspace id'),
    action: actionSchema,
    ids: z
      .array(bodyIdSchema('id'), { error: 'The ids must be an array of ids.' })
      .min(1, 'The ids may not be empty.')
      .max(MAX_BULK_IDS, `The ids may not have more than ${MAX_BULK_IDS} items.`)
      .optional(),
    filter: z
      .object(
        {
          q: searchSchema.optional(),
          finder_id: bodyIdSchema('finder id').optional(),
          without_coordinates: z
            .boolean({ error: 'The without coordinates field must be true or false.' })
            .optional(),
        },
        { error: 'The filter must be an object.' },
      )
      .optional(),
    tag_id: bodyIdSchema('tag id').optional(),
    set_id: bodyIdSchema('set id').optional(),
  })
  .superRefine((body, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (body.ids === undefined && body.filter === undefined) {
      issue('ids', 'The ids field is required when filter is not present.');
    }
    if (body.ids !== undefined && body.filter !== undefined) {
      issue('filter', 'The filter may not be given with ids.');
    }
    const kind = targetKindOf(body.action);
    for (const [field, fieldKind] of [
      ['tag_id', 'tag'],
      ['set_id', 'set'],
    ] as const) {
      const given = body[field] !== undefined;
      if (kind === fieldKind && !given)
        issue(field, `The ${fieldKind} id field is required for ${body.action}.`);
      if (kind !== fieldKind && given) {
        issue(field, `The ${fieldKind} id is only taken by add_${fieldKind} and remove_${fieldKind}.`);
      }
    }
  });
export type BulkLocationsBody = z.infer<typeof bulkLocationsBodySchema>;

/** The answer: the action, and how many locations it changed. */
export const bulkLocationsResultSchema = z.object({
  action: z.enum(BULK_ACTIONS),
  affected: z.number().int(),
});
export type BulkLocationsResult = z.infer<typeof bulkLocationsResultSchema>;
