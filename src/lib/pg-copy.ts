// Encoding of values for PostgreSQL's COPY ... FROM STDIN WITH (FORMAT csv), and of text
// arrays as array literals, so bulk writers stream rows without building SQL per row.

const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field for COPY. Only an unquoted empty field means NULL, so '' is sent quoted. */
export function copyField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (value === '' || NEEDS_QUOTES.test(value)) return `"${value.replaceAll('"', '""')}"`;
  return value;
}

/** A PostgreSQL array literal of text, every element quoted (so "null" stays a string). */
export const arrayLiteral = (values: readonly string[]) =>
  `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
