// Errors of the workspaces module.
import { createNotFoundError } from '../../lib/errors.ts';

/** A workspace the caller may not reach answers exactly like a missing one (decisions §2). */
export const createWorkspaceNotFoundError = () => createNotFoundError('Workspace not found.');
