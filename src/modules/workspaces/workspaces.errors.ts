// Errors of the workspaces module.
import { createNotFoundError, createTierRequiredError } from '../../lib/errors.ts';

/** A workspace the caller may not reach answers exactly like a missing one (docs/api.md, Conventions). */
export const createWorkspaceNotFoundError = () => createNotFoundError('Workspace not found.');

/** Over the plan's limit on owned workspaces (docs/api.md, Subscription status and tier). */
export const createWorkspaceLimitError = (limit: number) =>
  createTierRequiredError(
    `Your plan allows ${limit} workspace${limit === 1 ? '' : 's'}. Upgrade to create more.`,
  );
