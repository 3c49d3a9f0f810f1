// Queries over tags. Reads and writes by id are filtered through `accessibleWorkspace`, so a
// tag of a workspace the actor cannot reach is indistinguishable from a missing one.
// `findOrCreateTagsByName` is the set-based lookup the locations module and CSV import use.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { streamTable } from '../../db/lists.ts';
import type { Actor } from '../../lib/actor.ts';
import type { Page, StreamedList } from '../../lib/pagination.ts';
import { slugify } from '../../lib/slug.ts';
import { accessibleWorkspace, listedWorkspace } from '../workspaces/workspaces.access.ts';
import { type TagRow, tagsTable } from './tags.table.ts';

/**
 * The workspace's tags for `names`, keyed by slug, creating the missing ones. Names are trimmed;
 * blank names are skipped; names that slugify alike are one tag (the first spelling names a new
 * tag; an existing tag keeps its name). Two statements whatever the number of names: one
 * `insert ... on conflict (workspace_id, slug) do nothing` and one select, each with the names
 * passed as a single JSON parameter. The select runs as its own statement, so under READ
 * COMMITTED it also sees a tag a concurrent transaction committed while the insert waited on it.
 * The caller checks workspace access.
 */
export async function findOrCreateTagsByName(
  tx: Executor,
  workspaceId: number,
  names: string[],
): Promise<Map<string, TagRow>> {
  const bySlug = new Map<string, string>();
  for (const raw of names) {
    const name = raw.trim();
    if (name === '') continue;
    const slug = slugify(name);
    if (!bySlug.has(slug)) bySlug.set(slug, name);
  }
  const result = new Map<string, TagRow>();
  if (bySlug.size === 0) return result;

  const wanted = JSON.stringify([...bySlug].map(([slug, name]) => ({ slug, name })));
  await tx.execute(sql`
    insert into ${tagsTable} (workspace_id, name, slug)
    select ${workspaceId}, wanted.name, wanted.slug
    from json_to_recordset(${wanted}::json) as wanted(name text, slug text)
    on conflict (workspace_id, slug) do nothing`);
  const rows = await tx
    .select()
    .from(tagsTable)
    .where(
      and(
        eq(tagsTable.workspaceId, workspaceId),
        sql`${tagsTable.slug} in (select wanted.slug from json_to_recordset(${wanted}::json) as wanted(slug text))`,
      ),
    );
  for (const row of rows) result.set(row.slug, row);
  return result;
}

export function createTagsRepository(db: Executor) {
  const reachable = (actor: Actor, id: number): SQL =>
    and(eq(tagsTable.id, id), accessibleWorkspace(tagsTable.workspaceId, actor))!;

  return {
    /**
     * The actor's tags, of one workspace when `workspaceId` is given, streamed in batches
     * (lib/pagination.ts streamTable); `total` when paged.
     */
    streamList(actor: Actor, workspaceId: number | undefined, page: Page): Promise<StreamedList<TagRow>> {
      return streamTable<TagRow>(
        db,
        tagsTable,
        listedWorkspace(tagsTable.workspaceId, actor, workspaceId),
        page,
      );
    },

    async find(actor: Actor, id: number, tx: Executor = db): Promise<TagRow | undefined> {
      const [row] = await tx.select().from(tagsTable).where(reachable(actor, id));
      return row;
    },

    /** Throws the unique violation of (workspace_id, slug) for a taken slug. */
    async insert(values: { workspaceId: number; name: string }, tx: Executor = db): Promise<TagRow> {
      const [row] = await tx
        .insert(tagsTable)
        .values({ ...values, slug: slugify(values.name) })
        .returning();
      return row!;
    },

    /** Regenerates the slug. Undefined when the tag is missing or out of reach; throws the unique violation for a taken slug. */
    async rename(actor: Actor, id: number, name: string, tx: Executor = db): Promise<TagRow | undefined> {
      const [row] = await tx
        .update(tagsTable)
        .set({ name, slug: slugify(name) })
        .where(reachable(actor, id))
        .returning();
      return row;
    },

    /** The workspace of the deleted tag, undefined when none was; its location links go with it (cascade). */
    async delete(actor: Actor, id: number, tx: Executor = db): Promise<number | undefined> {
      const [row] = await tx
        .delete(tagsTable)
        .where(reachable(actor, id))
        .returning({ workspaceId: tagsTable.workspaceId });
      return row?.workspaceId;
    },
  };
}

export type TagsRepository = ReturnType<typeof createTagsRepository>;
