// What `q` of the location list (and of a bulk change's filter) looks for, and where
// (docs/api.md, Locations): a part of any of the searched fields, in any case. The fields are
// kept lower-cased and joined in one stored generated column (locations.table.ts), which the
// trigram index is built on: a search that matches many rows compares each of them, and lowering
// and joining seven fields for every row at each read cost as much again as the comparison.
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { substringPattern } from '../../../db/like.ts';

/** The columns `q` is looked for in. */
const SEARCHED_COLUMNS = ['title', 'address', 'city', 'zip', 'state', 'country', 'external_id'] as const;
type SearchedColumn = (typeof SEARCHED_COLUMNS)[number];

/**
 * The searched fields as one lower-cased text, a missing one as ''. They are joined by U+001F (a
 * control character, which `q` may not hold), so that a match lies within one field and never
 * runs from one into the next (`in101` does not find "Berlin" with zip "10115").
 */
export const searchedTextOf = (column: (name: SearchedColumn) => SQLWrapper): SQL =>
  sql`lower(${sql.join(
    SEARCHED_COLUMNS.map((name) => sql`coalesce(${column(name)}, '')`),
    sql.raw(` || E'\\x1f' || `),
  )})`;

/**
 * The condition that `q` is a part of the searched text (the stored column), lower-cased by
 * PostgreSQL's lower() as the column is, so that both fold case alike; none for an empty or
 * absent `q`. LIKE with a pattern of three characters or more is answered by the trigram index.
 */
export function searchCondition(searchedText: SQLWrapper, q: string | undefined): SQL | undefined {
  if (q === undefined || q === '') return undefined;
  return sql`${searchedText} like lower(${substringPattern(q)})`;
}
