// The data model as PostgreSQL holds it: every foreign key indexed, the delete rules (what each
// DELETE removes and keeps; docs/api.md, Routes), the uniqueness rules, CHECK constraints and the
// generated CSV matching key (docs/api.md, Data model notes).
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { EMPTY_LOCATION_PAYLOAD } from '../src/modules/ai-imports/ai-imports.normalize.ts';
import * as schema from '../src/schema.ts';
import { createUser } from './factories/users.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let db: Database;
beforeAll(async () => {
  ctx = await createTestContext();
  db = ctx.deps.db;
});
afterAll(async () => {
  await ctx?.close();
});

const countOf = async (table: string, where = 'true') =>
  (await db.execute<{ n: number }>(sql.raw(`select count(*)::int as n from "${table}" where ${where}`)))[0]!
    .n;

const answers = {
  business_type: 'Bakery',
  approximate_location_count: '1-5',
  geographic_scope: 'Berlin',
  customer_description: 'Locals',
  source_notes: 'Shop, 1 Main St',
};
const payload = { ...EMPTY_LOCATION_PAYLOAD, name: 'Shop' };

/** A workspace holding one of everything, for the cascade checks. */
async function populatedWorkspace() {
  const user = await createUser(ctx.deps);
  const [workspace] = await db.insert(schema.workspacesTable).values({ name: 'Cascade' }).returning();
  const workspaceId = workspace!.id;
  await db.insert(schema.workspaceMembersTable).values({ workspaceId, userId: user.id, role: 'owner' });
  const [location] = await db
    .insert(schema.locationsTable)
    .values({ workspaceId, title: 'Shop', address: '1 Main St' })
    .returning();
  const [tag] = await db
    .insert(schema.tagsTable)
    .values({ workspaceId, name: 'Open Late', slug: 'open-late' })
    .returning();
  const [set] = await db.insert(schema.setsTable).values({ workspaceId, name: 'Stores' }).returning();
  await db.insert(schema.locationTagsTable).values({ locationId: location!.id, tagId: tag!.id });
  await db.insert(schema.locationSetsTable).values({ locationId: location!.id, setId: set!.id });
  await db
    .insert(schema.customFieldDefinitionsTable)
    .values({ workspaceId, name: 'hours', label: 'Hours', type: 'text' });
  const [map] = await db.insert(schema.mapsTable).values({ title: 'Finder map' }).returning();
  await db.insert(schema.mapOwnersTable).values({ mapId: map!.id, userId: user.id });
  await db.insert(schema.mapWorkspacesTable).values({ mapId: map!.id, workspaceId });
  await db.insert(schema.mapSetsTable).values({ mapId: map!.id, setId: set!.id });
  await db.insert(schema.mapLocationsTable).values({ mapId: map!.id, locationId: location!.id });
  const [finder] = await db
    .insert(schema.findersTable)
    .values({ workspaceId, mapId: map!.id, name: 'Finder', token: `tok-${workspaceId}-${Math.random()}` })
    .returning();
  await db.insert(schema.finderLocationsTable).values({ finderId: finder!.id, locationId: location!.id });
  await db
    .insert(schema.finderIntegrationsTable)
    .values({ finderId: finder!.id, provider: 'google', apiKeyEncrypted: 'x' });
  await db
    .insert(schema.finderPublicationsTable)
    .values({ finderId: finder!.id, hash: 'abc', objectKey: 'k', url: 'u' });
  await db
    .insert(schema.analyticsEventsTable)
    .values({ finderId: finder!.id, type: 'view', occurredAt: new Date() });
  await db
    .insert(schema.analyticsSessionsTable)
    .values({ finderId: finder!.id, day: '2026-01-01', sessionId: 'visit' });
  const [process] = await db
    .insert(schema.processesTable)
    .values({ workspaceId, userId: user.id, type: 'csv_import' })
    .returning();
  await db.insert(schema.processEventsTable).values({ processId: process!.id, message: 'started' });
  const [batch] = await db
    .insert(schema.aiImportBatchesTable)
    .values({
      workspaceId,
      userId: user.id,
      finderId: finder!.id,
      modelName: 'builtin-parser',
      promptVersion: 'v1',
      sourceAnswers: answers,
    })
    .returning();
  await db
    .insert(schema.aiImportItemsTable)
    .values({ batchId: batch!.id, confidence: 'low', normalizedPayload: payload });
  await db
    .insert(schema.invitesTable)
    .values({ email: 'x@example.test', workspaceId, tokenHash: `h-${Math.random()}`, expiresAt: new Date() });
  return { user, workspaceId, location: location!, tag: tag!, set: set!, map: map!, finder: finder! };
}

describe('indexes', () => {
  it('indexes every foreign key (an index whose leading columns are the key)', async () => {
    const unindexed = await db.execute<{ table: string; columns: string }>(sql`
      select c.conrelid::regclass::text as table, string_agg(a.attname, ',' order by k.ord) as columns
      from pg_constraint c
      cross join lateral unnest(c.conkey) with ordinality as k(attnum, ord)
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace
        and not exists (
          select 1 from pg_index i
          where i.indrelid = c.conrelid
            and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
            and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey
        )
      group by c.oid, c.conrelid`);
    expect(unindexed).toEqual([]);
  });
});

describe('delete rules', () => {
  it('deleting a workspace removes every child row', async () => {
    const { workspaceId, map } = await populatedWorkspace();
    await db.delete(schema.workspacesTable).where(eq(schema.workspacesTable.id, workspaceId));
    for (const table of [
      'locations',
      'tags',
      'sets',
      'custom_field_definitions',
      'finders',
      'processes',
      'ai_import_batches',
      'invites',
      'workspace_members',
    ]) {
      expect(await countOf(table, `workspace_id = ${workspaceId}`), table).toBe(0);
    }
    for (const table of [
      'location_tags',
      'location_sets',
      'finder_locations',
      'finder_integrations',
      'finder_publications',
      'analytics_events',
      'analytics_sessions',
      'process_events',
      'ai_import_items',
      'map_workspaces',
      'map_sets',
      'map_locations',
    ]) {
      expect(await countOf(table), table).toBe(0);
    }
    // The map itself belongs to its owners, not the workspace: it stays, without its links.
    expect(await countOf('maps', `id = ${map.id}`)).toBe(1);
  });

  it('deleting a tag or a set only detaches it; locations and finders remain', async () => {
    const { location, tag, set, finder } = await populatedWorkspace();
    await db.delete(schema.tagsTable).where(eq(schema.tagsTable.id, tag.id));
    await db.delete(schema.setsTable).where(eq(schema.setsTable.id, set.id));
    expect(await countOf('location_tags', `tag_id = ${tag.id}`)).toBe(0);
    expect(await countOf('location_sets', `set_id = ${set.id}`)).toBe(0);
    expect(await countOf('map_sets', `set_id = ${set.id}`)).toBe(0);
    expect(await countOf('locations', `id = ${location.id}`)).toBe(1);
    expect(await countOf('finders', `id = ${finder.id}`)).toBe(1);
  });

  it('deleting a backing map leaves the finder without it', async () => {
    const { map, finder } = await populatedWorkspace();
    await db.delete(schema.mapsTable).where(eq(schema.mapsTable.id, map.id));
    const [row] = await db.select().from(schema.findersTable).where(eq(schema.findersTable.id, finder.id));
    expect(row!.mapId).toBeNull();
  });

  it('deleting a location keeps analytics events and AI items, without the link', async () => {
    const { location, finder } = await populatedWorkspace();
    await db
      .insert(schema.analyticsEventsTable)
      .values({ finderId: finder.id, type: 'click', locationId: location.id, occurredAt: new Date() });
    await db.delete(schema.locationsTable).where(eq(schema.locationsTable.id, location.id));
    expect(await countOf('analytics_events', `location_id = ${location.id}`)).toBe(1);
    expect(await countOf('finder_locations', `location_id = ${location.id}`)).toBe(0);
  });
});

describe('uniqueness and checks', () => {
  it('keeps emails unique case-insensitively among users not deleted', async () => {
    const user = await createUser(ctx.deps, { email: 'Unique@Example.test' });
    await expect(createUser(ctx.deps, { email: 'unique@example.TEST' })).rejects.toThrow();
    await db
      .update(schema.usersTable)
      .set({ deletedAt: new Date() })
      .where(eq(schema.usersTable.id, user.id));
    await expect(createUser(ctx.deps, { email: 'unique@example.TEST' })).resolves.toBeDefined();
  });

  it('keeps tag slugs unique within a workspace only', async () => {
    const a = await populatedWorkspace();
    const b = await populatedWorkspace();
    await expect(
      db
        .insert(schema.tagsTable)
        .values({ workspaceId: a.workspaceId, name: 'Open  late', slug: 'open-late' }),
    ).rejects.toThrow();
    await expect(
      db.insert(schema.tagsTable).values({ workspaceId: b.workspaceId, name: 'x', slug: 'other' }),
    ).resolves.toBeDefined();
  });

  it('keeps external ids unique within a workspace', async () => {
    const { workspaceId } = await populatedWorkspace();
    await db.insert(schema.locationsTable).values({ workspaceId, title: 'A', externalId: 'S-1' });
    await expect(
      db.insert(schema.locationsTable).values({ workspaceId, title: 'B', externalId: 'S-1' }),
    ).rejects.toThrow();
    // Many locations without one are fine.
    await db.insert(schema.locationsTable).values([
      { workspaceId, title: 'C' },
      { workspaceId, title: 'D' },
    ]);
  });

  it('refuses values outside the enumerations', async () => {
    await expect(
      db.execute(sql`update users set role = 'superuser' where id = (select min(id) from users)`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`update users set subscription_tier = 'gold' where id = (select min(id) from users)`),
    ).rejects.toThrow();
    const { workspaceId } = await populatedWorkspace();
    await expect(
      db.insert(schema.processesTable).values({ workspaceId, status: 'exploded' as never }),
    ).rejects.toThrow();
    await expect(
      db.insert(schema.processesTable).values({ workspaceId, progressPercent: 101 }),
    ).rejects.toThrow();
  });
});

describe('match_key', () => {
  it('is title|address|zip lower-cased without whitespace, kept by PostgreSQL', async () => {
    const { workspaceId } = await populatedWorkspace();
    const [row] = await db
      .insert(schema.locationsTable)
      .values({ workspaceId, title: '  Main  Street Store ', address: '1 Main\tSt', zip: 'AB1 2CD' })
      .returning();
    expect(row!.matchKey).toBe('mainstreetstore|1mainst|ab12cd');
    const [updated] = await db
      .update(schema.locationsTable)
      .set({ zip: null })
      .where(eq(schema.locationsTable.id, row!.id))
      .returning();
    expect(updated!.matchKey).toBe('mainstreetstore|1mainst|');
  });
});
