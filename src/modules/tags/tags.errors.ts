// Errors of the tags module.
import { createFieldError, createNotFoundError } from '../../lib/errors.ts';

export const createTagNotFoundError = () => createNotFoundError('Tag not found.');

/** Tags are unique per (workspace, slug), so two names that slugify alike collide. */
export const createTagNameTakenError = () => createFieldError('name', 'A tag with this name already exists.');
