// The field errors of a form's last submit for controls that place their own (a group of
// inputs such as an interval's two times, a list, a combo box whose input carries no name): the
// messages at a dotted path, hidden once the controls at or under that path are edited, as the
// Form hides a named field's error once it is edited.
import { useState } from 'react';
import { isValidationError } from '../api/errors.ts';

export interface ErrorsAt {
  /** The messages at exactly this path, unless edited since. */
  at(path: string): string[];
  /** The controls at this path (and under it) were edited: their messages go. */
  edited(path: string): void;
}

export function useErrorsAt(error: unknown): ErrorsAt {
  const fields = isValidationError(error) ? error.fields : {};
  const [edited, setEdited] = useState<{ error: unknown; paths: string[] }>({ error, paths: [] });
  const paths = edited.error === error ? edited.paths : [];
  const hidden = (path: string) => paths.some((done) => path === done || path.startsWith(`${done}.`));
  return {
    at: (path) => (hidden(path) ? [] : (fields[path] ?? [])),
    edited(path) {
      if (
        !hidden(path) &&
        Object.keys(fields).some((field) => field === path || field.startsWith(`${path}.`))
      )
        setEdited({ error, paths: [...paths, path] });
    },
  };
}

/**
 * The same errors for controls that name their paths from a part of the body: an AI import
 * item's hours say `hours.mon.0`, its 422 `payload.hours.mon.0`.
 */
export const errorsUnder = (errors: ErrorsAt, prefix: string): ErrorsAt => ({
  at: (path) => errors.at(`${prefix}.${path}`),
  edited: (path) => errors.edited(`${prefix}.${path}`),
});
