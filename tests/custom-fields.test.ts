// Custom field definitions through HTTP on a real database: CRUD, the options rule, names
// (safe keys, unique per workspace), sort_order, reorder (all or nothing), workspace access,
// the admin mount, and that stored location values are never touched.
import { asc, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFieldDefinitionsTable } from '../src/modules/custom-fields/custom-fields.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { addMember, createCast, createWorkspace } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let owner: UserRow;
let ownerToken: string;
let workspaceId: number;
let member: UserRow;
let memberToken: string;
let strangerToken: string;
let strangerWorkspaceId: number;
let adminToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ owner, ownerToken, workspaceId, member, memberToken, strangerToken, strangerWorkspaceId, adminToken } =
    await createCast(ctx.deps));
});
afterAll(async () => {
  await ctx?.close();
});

const call = createCaller(() => ctx);

interface DefinitionJson {
  id: number;
  name: string;
  label: string;
  type: string;
  options: string[] | null;
  required: boolean;
  sort_order: number;
  workspace_id: number;
}

let sequence = 0;
async function createDefinition(
  token: string,
  inWorkspace: number,
  overrides: Record<string, unknown> = {},
): Promise<DefinitionJson> {
  sequence += 1;
  const res = await call('POST', '/custom-field-definitions', token, {
    name: `field_${sequence}`,
    label: `Field ${sequence}`,
    type: 'text',
    workspace_id: inWorkspace,
    ...overrides,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A fresh workspace owned by `owner` (with `member` in it), so orders start empty. */
async function freshWorkspace(name = 'Fields'): Promise<number> {
  const id = await createWorkspace(ctx.deps, owner, name);
  await addMember(ctx.deps, id, member);
  return id;
}

const definitionCount = async () =>
  (await ctx.deps.db.select({ n: count() }).from(customFieldDefinitionsTable))[0]!.n;
const definitionRow = async (id: number) =>
  (
    await ctx.deps.db.select().from(customFieldDefinitionsTable).where(eq(customFieldDefinitionsTable.id, id))
  )[0];
const orderIn = async (inWorkspace: number) =>
  ctx.deps.db
    .select({ id: customFieldDefinitionsTable.id, sortOrder: customFieldDefinitionsTable.sortOrder })
    .from(customFieldDefinitionsTable)
    .where(eq(customFieldDefinitionsTable.workspaceId, inWorkspace))
    .orderBy(asc(customFieldDefinitionsTable.id));

const notFound = { message: 'Custom field definition not found.', code: 'not_found' };
const workspaceNotFound = { message: 'Workspace not found.', code: 'not_found' };

describe('POST /api/custom-field-definitions', () => {
  it('creates a definition, placed after the last one of the workspace', async () => {
    const workspace = await freshWorkspace();
    const res = await call('POST', '/custom-field-definitions', ownerToken, {
      name: ' opening_hours ',
      label: 'Opening hours',
      type: 'textarea',
      workspace_id: workspace,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      name: 'opening_hours',
      label: 'Opening hours',
      type: 'textarea',
      options: null,
      required: false,
      sort_order: 0,
      workspace_id: workspace,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const second = await createDefinition(memberToken, workspace, {
      name: 'Service level',
      type: 'select',
      options: ['gold', 'silver'],
      required: true,
    });
    expect(second).toMatchObject({ sort_order: 1, options: ['gold', 'silver'], required: true });
    expect(await definitionRow(second.id)).toMatchObject({ sortOrder: 1, options: ['gold', 'silver'] });
  });

  it('numbers after the highest sort_order, gaps included', async () => {
    const workspace = await freshWorkspace();
    const a = await createDefinition(ownerToken, workspace);
    const b = await createDefinition(ownerToken, workspace);
    await ctx.deps.db
      .update(customFieldDefinitionsTable)
      .set({ sortOrder: 7 })
      .where(eq(customFieldDefinitionsTable.id, b.id));
    expect((await call('DELETE', `/custom-field-definitions/${a.id}`, ownerToken)).statusCode).toBe(204);
    expect((await createDefinition(ownerToken, workspace)).sort_order).toBe(8);
  });

  it.each([
    [{ type: 'select' }, 'The options field is required for select and multiselect fields.'],
    [
      { type: 'multiselect', options: null },
      'The options field is required for select and multiselect fields.',
    ],
    [{ type: 'text', options: ['a'] }, 'Options are only allowed for select and multiselect fields.'],
    [{ type: 'select', options: [] }, 'The options must contain at least one value.'],
    [{ type: 'select', options: ['a', 'a'] }, 'The options must be distinct.'],
    [{ type: 'select', options: 'a,b' }, 'The options must be an array of strings.'],
  ])('refuses %j on errors.options and writes nothing', async (overrides, message) => {
    const before = await definitionCount();
    const res = await call('POST', '/custom-field-definitions', ownerToken, {
      name: 'level',
      label: 'Level',
      workspace_id: workspaceId,
      ...overrides,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ options: [message] });
    expect(await definitionCount()).toBe(before);
  });

  it.each([
    [{}, ['label', 'name', 'type', 'workspace_id']],
    [{ name: 'bad.name' }, ['name']],
    [{ name: 'a'.repeat(65) }, ['name']],
    [{ name: '   ' }, ['name']],
    [{ name: '__proto__' }, ['name']],
    [{ name: 'sets' }, ['name']],
    [{ name: ' Title ' }, ['name']],
    [{ name: 'HOURS_MON' }, ['name']],
    [{ name: 5 }, ['name']],
    [{ label: '' }, ['label']],
    [{ type: 'color' }, ['type']],
    [{ required: 'yes' }, ['required']],
    [{ workspace_id: 'abc' }, ['workspace_id']],
    [{ type: 'select', options: ['ok', 3] }, ['options.1']],
  ])('refuses %j naming %j and writes nothing', async (overrides, fields) => {
    const base = { name: 'valid_name', label: 'Valid', type: 'text', workspace_id: workspaceId };
    const body = Object.keys(overrides).length === 0 ? {} : { ...base, ...overrides };
    const before = await definitionCount();
    const res = await call('POST', '/custom-field-definitions', ownerToken, body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: 'The given data was invalid.', code: 'validation_failed' });
    expect(Object.keys(res.json().errors).sort()).toEqual(fields);
    expect(await definitionCount()).toBe(before);
  });

  it('says why a name the CSV import reads as its own column is refused', async () => {
    const res = await call('POST', '/custom-field-definitions', ownerToken, {
      name: 'Sets',
      label: 'Sets',
      type: 'text',
      workspace_id: workspaceId,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      name: [
        'The name is a column of the CSV import of locations (such as title, tags, sets or hours_mon), where it could not fill this field; choose another.',
      ],
    });
  });

  it('names the allowed types when the type is unknown', async () => {
    const res = await call('POST', '/custom-field-definitions', ownerToken, {
      name: 'x',
      label: 'X',
      type: 'color',
      workspace_id: workspaceId,
    });
    expect(res.json().errors.type).toEqual([
      'The type must be one of: text, textarea, number, boolean, select, multiselect, url, email, phone, date.',
    ]);
  });

  it('refuses a name taken in the workspace, compared case-insensitively; another workspace may use it', async () => {
    const workspace = await freshWorkspace();
    await createDefinition(ownerToken, workspace, { name: 'Color' });
    const before = await definitionCount();
    for (const name of ['Color', 'color']) {
      const res = await call('POST', '/custom-field-definitions', memberToken, {
        name,
        label: 'Colour',
        type: 'text',
        workspace_id: workspace,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ name: ['A custom field with this name already exists.'] });
    }
    expect(await definitionCount()).toBe(before);
    expect((await createDefinition(strangerToken, strangerWorkspaceId, { name: 'Color' })).name).toBe(
      'Color',
    );
  });

  it('gives concurrent creates distinct sort_orders and lets one spelling of a name win', async () => {
    const workspace = await freshWorkspace();
    // Open the pool's connections first, so the requests are not staggered by connecting.
    await Promise.all(Array.from({ length: 8 }, () => ctx.deps.db.execute(sql`select pg_sleep(0.05)`)));
    const post = (name: string) =>
      call('POST', '/custom-field-definitions', ownerToken, {
        name,
        label: name,
        type: 'text',
        workspace_id: workspace,
      });
    const distinct = await Promise.all(['a', 'b', 'c', 'd'].map(post));
    expect(distinct.map((res) => res.statusCode)).toEqual([201, 201, 201, 201]);
    expect(distinct.map((res) => res.json().sort_order).sort()).toEqual([0, 1, 2, 3]);
    const clashing = await Promise.all(['Size', 'size', 'SIZE', 'sIzE'].map(post));
    expect(clashing.map((res) => res.statusCode).sort()).toEqual([201, 422, 422, 422]);
    expect(await orderIn(workspace)).toHaveLength(5);
  });

  it('answers 404 for a workspace the caller is not a member of', async () => {
    const before = await definitionCount();
    const res = await call('POST', '/custom-field-definitions', ownerToken, {
      name: 'sneaky',
      label: 'Sneaky',
      type: 'text',
      workspace_id: strangerWorkspaceId,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(workspaceNotFound);
    expect(await definitionCount()).toBe(before);
  });
});

describe('GET /api/custom-field-definitions', () => {
  it('lists by sort_order then id, for the workspaces the caller is in', async () => {
    const workspace = await freshWorkspace();
    const a = await createDefinition(ownerToken, workspace);
    const b = await createDefinition(ownerToken, workspace);
    const c = await createDefinition(ownerToken, workspace);
    // b and c share a sort_order: the id decides.
    await ctx.deps.db
      .update(customFieldDefinitionsTable)
      .set({ sortOrder: 0 })
      .where(eq(customFieldDefinitionsTable.id, c.id));
    await ctx.deps.db
      .update(customFieldDefinitionsTable)
      .set({ sortOrder: 5 })
      .where(eq(customFieldDefinitionsTable.id, a.id));
    await ctx.deps.db
      .update(customFieldDefinitionsTable)
      .set({ sortOrder: 0 })
      .where(eq(customFieldDefinitionsTable.id, b.id));

    const res = await call('GET', `/custom-field-definitions?workspace_id=${workspace}`, memberToken);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((d: DefinitionJson) => d.id)).toEqual([b.id, c.id, a.id]);

    const paged = await call(
      'GET',
      `/custom-field-definitions?workspace_id=${workspace}&offset=1`,
      memberToken,
    );
    expect(paged.headers['x-total-count']).toBe('3');
    expect(paged.json().map((d: DefinitionJson) => d.id)).toEqual([c.id, a.id]);

    const theirs = await createDefinition(strangerToken, strangerWorkspaceId);
    const all = await call('GET', '/custom-field-definitions', ownerToken);
    const ids = all.json().map((d: DefinitionJson) => d.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    expect(ids).not.toContain(theirs.id);
  });

  it('answers 404 for a foreign workspace_id and 422 for a malformed one', async () => {
    const foreign = await call(
      'GET',
      `/custom-field-definitions?workspace_id=${strangerWorkspaceId}`,
      ownerToken,
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(workspaceNotFound);
    const bad = await call('GET', '/custom-field-definitions?workspace_id=-1', ownerToken);
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['workspace_id']);
  });
});

describe('GET /api/custom-field-definitions/:id', () => {
  it('answers the definition to a member, and 404 for a foreign or missing one', async () => {
    const mine = await createDefinition(ownerToken, workspaceId);
    const res = await call('GET', `/custom-field-definitions/${mine.id}`, memberToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: mine.id, name: mine.name });
    const theirs = await createDefinition(strangerToken, strangerWorkspaceId);
    for (const id of [theirs.id, 2_000_000]) {
      const miss = await call('GET', `/custom-field-definitions/${id}`, ownerToken);
      expect(miss.statusCode).toBe(404);
      expect(miss.json()).toEqual(notFound);
    }
  });
});

describe('PUT /api/custom-field-definitions/:id', () => {
  it('changes label and required (a member may); the name stays', async () => {
    const definition = await createDefinition(ownerToken, workspaceId);
    const res = await call('PUT', `/custom-field-definitions/${definition.id}`, memberToken, {
      label: 'New label',
      required: true,
      name: 'renamed',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      label: 'New label',
      required: true,
      name: definition.name,
      type: 'text',
    });
    expect(await definitionRow(definition.id)).toMatchObject({
      label: 'New label',
      required: true,
      name: definition.name,
    });
  });

  it('retypes without touching the values stored on locations', async () => {
    const definition = await createDefinition(ownerToken, workspaceId, {
      type: 'select',
      options: ['small', 'large'],
    });
    const [location] = await ctx.deps.db
      .insert(locationsTable)
      .values({ workspaceId, title: 'Store', customValues: { [definition.name]: 'large', other: 1 } })
      .returning();

    const res = await call('PUT', `/custom-field-definitions/${definition.id}`, ownerToken, {
      type: 'number',
    });
    expect(res.statusCode).toBe(200);
    // Leaving select drops the options.
    expect(res.json()).toMatchObject({ type: 'number', options: null });
    const [after] = await ctx.deps.db
      .select()
      .from(locationsTable)
      .where(eq(locationsTable.id, location!.id));
    expect(after!.customValues).toEqual({ [definition.name]: 'large', other: 1 });
  });

  it('keeps the options from select to multiselect, and replaces them when given', async () => {
    const definition = await createDefinition(ownerToken, workspaceId, {
      type: 'select',
      options: ['a', 'b'],
    });
    const multi = await call('PUT', `/custom-field-definitions/${definition.id}`, ownerToken, {
      type: 'multiselect',
    });
    expect(multi.json()).toMatchObject({ type: 'multiselect', options: ['a', 'b'] });
    const replaced = await call('PUT', `/custom-field-definitions/${definition.id}`, ownerToken, {
      options: ['c'],
    });
    expect(replaced.json()).toMatchObject({ type: 'multiselect', options: ['c'] });
  });

  it.each([
    [{ type: 'select' }, { options: ['The options field is required for select and multiselect fields.'] }],
    [{ options: ['x'] }, { options: ['Options are only allowed for select and multiselect fields.'] }],
    [{ type: 'select', options: [] }, { options: ['The options must contain at least one value.'] }],
    [{ label: '' }, { label: ['The label field is required.'] }],
    [{ type: 'colour' }, { type: [expect.stringContaining('The type must be one of')] }],
    [{ required: 1 }, { required: ['The required field must be true or false.'] }],
  ])('refuses %j and changes nothing', async (body, errors) => {
    const definition = await createDefinition(ownerToken, workspaceId);
    const before = await definitionRow(definition.id);
    const res = await call('PUT', `/custom-field-definitions/${definition.id}`, ownerToken, body);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual(errors);
    expect(await definitionRow(definition.id)).toEqual(before);
  });

  it('answers an empty body with the definition unchanged', async () => {
    const definition = await createDefinition(ownerToken, workspaceId);
    const res = await call('PUT', `/custom-field-definitions/${definition.id}`, ownerToken, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: definition.id, label: definition.label, type: 'text' });
  });

  it("answers 404 for another workspace's definition and leaves it alone", async () => {
    const theirs = await createDefinition(strangerToken, strangerWorkspaceId, { label: 'Theirs' });
    const res = await call('PUT', `/custom-field-definitions/${theirs.id}`, ownerToken, { label: 'Mine' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(notFound);
    expect((await definitionRow(theirs.id))!.label).toBe('Theirs');
  });
});

describe('DELETE /api/custom-field-definitions/:id', () => {
  it('deletes the definition (a member may) and leaves location values orphaned', async () => {
    const definition = await createDefinition(ownerToken, workspaceId);
    const [location] = await ctx.deps.db
      .insert(locationsTable)
      .values({ workspaceId, title: 'Orphan keeper', customValues: { [definition.name]: 'kept' } })
      .returning();
    const res = await call('DELETE', `/custom-field-definitions/${definition.id}`, memberToken);
    expect(res.statusCode).toBe(204);
    expect(await definitionRow(definition.id)).toBeUndefined();
    const [after] = await ctx.deps.db
      .select()
      .from(locationsTable)
      .where(eq(locationsTable.id, location!.id));
    expect(after!.customValues).toEqual({ [definition.name]: 'kept' });
  });

  it("answers 404 for another workspace's definition and keeps it", async () => {
    const theirs = await createDefinition(strangerToken, strangerWorkspaceId);
    const res = await call('DELETE', `/custom-field-definitions/${theirs.id}`, ownerToken);
    expect(res.statusCode).toBe(404);
    expect(await definitionRow(theirs.id)).toBeDefined();
  });
});

describe('POST /api/custom-field-definitions/reorder', () => {
  async function threeIn(workspace: number) {
    return [
      await createDefinition(ownerToken, workspace),
      await createDefinition(ownerToken, workspace),
      await createDefinition(ownerToken, workspace),
    ];
  }

  it('sets sort_order 0..n-1 in the given order and answers the ordered list (a member may)', async () => {
    const workspace = await freshWorkspace();
    const [a, b, c] = await threeIn(workspace);
    const res = await call('POST', '/custom-field-definitions/reorder', memberToken, {
      ids: [c!.id, a!.id, b!.id],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((d: DefinitionJson) => [d.id, d.sort_order])).toEqual([
      [c!.id, 0],
      [a!.id, 1],
      [b!.id, 2],
    ]);
    expect(await orderIn(workspace)).toEqual([
      { id: a!.id, sortOrder: 1 },
      { id: b!.id, sortOrder: 2 },
      { id: c!.id, sortOrder: 0 },
    ]);
    const listed = await call('GET', `/custom-field-definitions?workspace_id=${workspace}`, ownerToken);
    expect(listed.json().map((d: DefinitionJson) => d.id)).toEqual([c!.id, a!.id, b!.id]);
  });

  it('is not captured by /:id', async () => {
    expect((await call('GET', '/custom-field-definitions/reorder', ownerToken)).statusCode).toBe(404);
  });

  const notOneWorkspace = 'The ids must all be custom field definitions of one workspace.';
  const notEvery = 'The ids must name every custom field definition of the workspace exactly once.';

  it.each([
    ['a foreign id', 'foreign', notOneWorkspace],
    ['a missing definition of the workspace', 'missing', notEvery],
    ['an unknown id', 'unknown', notOneWorkspace],
    ['a duplicate', 'duplicate', 'The ids must not repeat.'],
    ['ids of two of my workspaces', 'mixed', notOneWorkspace],
    ['an empty list', 'empty', 'The ids field is required.'],
  ])('with %s changes nothing and answers 422 errors.ids', async (_label, kind, message) => {
    const workspace = await freshWorkspace();
    const [a, b, c] = await threeIn(workspace);
    const before = await orderIn(workspace);
    const theirs = await createDefinition(strangerToken, strangerWorkspaceId);
    const other = await createDefinition(ownerToken, await freshWorkspace('Other fields'));
    const ids = {
      foreign: [c!.id, b!.id, a!.id, theirs.id],
      missing: [c!.id, a!.id],
      unknown: [c!.id, b!.id, a!.id, 2_000_000],
      duplicate: [c!.id, b!.id, a!.id, a!.id],
      mixed: [c!.id, b!.id, a!.id, other.id],
      empty: [],
    }[kind];
    const res = await call('POST', '/custom-field-definitions/reorder', ownerToken, { ids });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'The given data was invalid.',
      code: 'validation_failed',
      errors: { ids: [message] },
    });
    expect(await orderIn(workspace)).toEqual(before);
    expect((await definitionRow(theirs.id))!.sortOrder).toBe(theirs.sort_order);
  });

  it('answers the same 422 for a foreign workspace as for unknown ids, so nothing leaks', async () => {
    const theirs = await createDefinition(strangerToken, strangerWorkspaceId);
    const foreign = await call('POST', '/custom-field-definitions/reorder', ownerToken, { ids: [theirs.id] });
    const unknown = await call('POST', '/custom-field-definitions/reorder', ownerToken, { ids: [2_000_000] });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json()).toEqual(unknown.json());
  });

  it.each([[{}], [{ ids: 'all' }], [{ ids: [1, 'two'] }], [{ ids: [0] }]])('refuses %j', async (body) => {
    const res = await call('POST', '/custom-field-definitions/reorder', ownerToken, body);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)[0]).toMatch(/^ids/);
  });
});

describe('/api/admin/custom-field-definitions', () => {
  it('answers 403 to non-admins and writes nothing', async () => {
    const before = await definitionCount();
    expect((await call('GET', '/admin/custom-field-definitions', ownerToken)).statusCode).toBe(403);
    const res = await call('POST', '/admin/custom-field-definitions', memberToken, {
      name: 'nope',
      label: 'Nope',
      type: 'text',
      workspace_id: workspaceId,
    });
    expect(res.statusCode).toBe(403);
    expect(await definitionCount()).toBe(before);
    const invalid = await call('POST', '/admin/custom-field-definitions/reorder', ownerToken, { ids: 'x' });
    expect(invalid.statusCode).toBe(403);
  });

  it('lets an admin read, write and reorder in any workspace', async () => {
    const a = await createDefinition(strangerToken, strangerWorkspaceId);
    const list = await call(
      'GET',
      `/admin/custom-field-definitions?workspace_id=${strangerWorkspaceId}`,
      adminToken,
    );
    expect(list.statusCode).toBe(200);
    const ids = list.json().map((d: DefinitionJson) => d.id);
    expect(ids).toContain(a.id);
    const created = await call('POST', '/admin/custom-field-definitions', adminToken, {
      name: 'by_admin',
      label: 'By admin',
      type: 'boolean',
      workspace_id: strangerWorkspaceId,
    });
    expect(created.statusCode).toBe(201);
    const all = [...ids, created.json().id].reverse();
    const reordered = await call('POST', '/admin/custom-field-definitions/reorder', adminToken, { ids: all });
    expect(reordered.statusCode).toBe(200);
    expect(reordered.json().map((d: DefinitionJson) => d.id)).toEqual(all);
    const updated = await call('PUT', `/admin/custom-field-definitions/${a.id}`, adminToken, {
      label: 'Admin label',
    });
    expect(updated.json().label).toBe('Admin label');
    expect((await call('DELETE', `/admin/custom-field-definitions/${a.id}`, adminToken)).statusCode).toBe(
      204,
    );
    expect(await definitionRow(a.id)).toBeUndefined();
  });
});
