// Errors of the holiday calendars module.
import { createFieldError, createNotFoundError } from '../../lib/errors.ts';

export const createHolidayCalendarNotFoundError = () => createNotFoundError('Holiday calendar not found.');

export const createHolidayCalendarNameTakenError = () =>
  createFieldError('name', 'A holiday calendar with this name already exists in the workspace.');

export const createTooManyHolidayCalendarsError = (max: number) =>
  createFieldError(
    'workspace_id',
    `The workspace has ${max} holiday calendars, the most it can have. Delete one, or put more dates into one calendar.`,
  );
