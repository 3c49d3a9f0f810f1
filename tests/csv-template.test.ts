// The dashboard's CSV template (src/dashboard/import/csv-rules.ts) offers every column the
// service's import reads, and only those: a column added to the import reaches the template.
import { expect, it } from 'vitest';
import { CSV_TEMPLATE_COLUMNS } from '../src/dashboard/import/csv-rules.ts';
import { knownColumns } from '../src/lib/location-csv-columns.ts';

it('lists every column the CSV import reads, each once', () => {
  expect(new Set(CSV_TEMPLATE_COLUMNS).size).toBe(CSV_TEMPLATE_COLUMNS.length);
  expect([...CSV_TEMPLATE_COLUMNS].sort()).toEqual([...knownColumns].sort());
});
