// A location's tags and sets: the join tables, owned here because a location is written and
// read with them (its JSON lists both), while tags and sets are only named things of a
// workspace. The rows die with either side: deleting a tag or a set removes its links to
// locations (docs/api.md, Tags and Sets) and the locations remain; deleting a location removes
// its links, never the tags or sets themselves.
import { index, integer, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { setsTable } from '../sets/sets.table.ts';
import { tagsTable } from '../tags/tags.table.ts';
import { locationsTable } from './locations.table.ts';

export const locationTagsTable = pgTable(
  'location_tags',
  {
    locationId: integer()
      .notNull()
      .references(() => locationsTable.id, { onDelete: 'cascade' }),
    tagId: integer()
      .notNull()
      .references(() => tagsTable.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.tagId] }), index('location_tags_tag_id_idx').on(t.tagId)],
);

export const locationSetsTable = pgTable(
  'location_sets',
  {
    setId: integer()
      .notNull()
      .references(() => setsTable.id, { onDelete: 'cascade' }),
    locationId: integer()
      .notNull()
      .references(() => locationsTable.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.setId, t.locationId] }),
    index('location_sets_location_id_idx').on(t.locationId),
  ],
);
