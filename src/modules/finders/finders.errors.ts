// Errors of the finders module.
import { createNotFoundError, type FieldErrors } from '../../lib/errors.ts';

export const createFinderNotFoundError = () => createNotFoundError('Finder not found.');

export const createIntegrationNotFoundError = () =>
  createNotFoundError('The finder has no key for this provider.');

/** "7, 9" or "7, 9, ... and 12 more": a refused list can be long. */
function describeIds(ids: number[]): string {
  const shown = ids.slice(0, 10).join(', ');
  return ids.length > 10 ? `${shown} and ${ids.length - 10} more` : shown;
}

/** Unknown ids and ids of another workspace get the same message (docs/api.md, Finders). */
export const foreignLocationsErrors = (ids: number[]): FieldErrors =>
  ids.length === 0
    ? {}
    : {
        locations: [
          `These locations do not exist or are not in the finder's workspace: ${describeIds(ids)}.`,
        ],
      };

/**
 * Rule ids that are not the workspace's, each named by its place in what was sent
 * (`rule.tag_ids.2`); unknown ids and ids of another workspace read the same.
 */
export const foreignRuleIdsErrors = (
  refused: { path: string; what: 'tag' | 'set'; id: number }[],
): FieldErrors =>
  Object.fromEntries(
    refused.map(({ path, what, id }) => [
      path,
      [`The ${what} ${id} does not exist or is not in the finder's workspace.`],
    ]),
  );
