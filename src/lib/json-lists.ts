// Shape checks of lists in parsed JSON: a chunked finder's index is read back by the publish
// (to keep what did not change) and by the widget, and both check its columns the same way.

/** A list of integers (the index's delta-coded columns and schedule numbers). */
export const isIntegerList = (value: unknown): value is number[] =>
  Array.isArray(value) && value.every((entry) => Number.isInteger(entry));

/** A list of strings (the index's base64 bitsets). */
export const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((entry) => typeof entry === 'string');
