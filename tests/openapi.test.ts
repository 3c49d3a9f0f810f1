// The OpenAPI document as a client generator sees it: every route of the app listed, every
// operation named (operationId, unique), public routes declaring `security: []` and truly
// answering without a token, named component schemas, integer ids, the widget payload's and
// the event stream's real content, and the real Redocly CLI (recommended rules) finding neither
// an error nor a warning in the document this app serves. tests/openapi-client.test.ts
// generates a client from it.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operationIdOf, singular } from '../src/plugins/openapi.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { tempDir } from './helpers/temp.ts';

const run = promisify(execFile);
const redoclyCli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

interface Schema {
  $ref?: string;
  type?: string;
  minimum?: number;
  maximum?: number;
  additionalProperties?: unknown;
  properties?: Record<string, Schema>;
}
interface Content {
  content?: Record<string, { schema: Schema }>;
}
interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; schema: Schema }[];
  requestBody?: Content;
  responses: Record<string, Content & { $ref?: string }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Content> };
}

let ctx: TestContext;
let doc: Document;
const operations: { method: string; path: string; operation: Operation }[] = [];

beforeAll(async () => {
  // Billing configured, so its routes check the token first (unconfigured, they answer 503).
  ctx = await createTestContext({
    env: {
      PADDLE_API_KEY: 'pdl_test_key',
      PADDLE_WEBHOOK_SECRET: 'whsec_test',
      PADDLE_PRICE_BRONZE: 'pri_b',
    },
  });
  const res = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}: ${res.body}`);
  doc = res.json();
  for (const [route, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      operations.push({ method: method.toUpperCase(), path: route, operation });
    }
  }
});
afterAll(async () => {
  await ctx?.close();
});

/** `METHOD /path` of every route Fastify serves, from printRoutes' radix tree (parts concatenate). */
function servedRoutes(tree: string): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const marker = line.indexOf('── ');
    if (marker < 0) continue;
    const depth = (marker - 1) / 4;
    const [, part = '', methods = ''] = /^(.*?)(?: \(([^)]*)\))?$/.exec(line.slice(marker + 3)) ?? [];
    stack.length = depth;
    stack.push((stack[depth - 1] ?? '') + (part.startsWith('(') ? '' : part));
    for (const method of methods.split(',')) {
      if (method.trim()) routes.push(`${method.trim()} ${stack[depth]}`);
    }
  }
  return routes;
}

/**
 * Redocly's own list of accepted problems (its lint-ignore file), beside the linted file
 * (docs/api.md, Frame): `/finders/token/{token}` and the routes under `/finders/{id}/` have the
 * same shape to no-ambiguous-paths, which compares templates only. They cannot meet: an id is an
 * integer, and Fastify matches the static `token` segment first.
 */
const LINT_IGNORE = `openapi.json:
  no-ambiguous-paths:
    - '#/paths/~1api~1finders~1{id}~1integrations'
    - '#/paths/~1api~1finders~1{id}~1analytics'
    - '#/paths/~1api~1admin~1finders~1{id}~1integrations'
    - '#/paths/~1api~1admin~1finders~1{id}~1analytics'
`;

interface RedoclyProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

describe('operationIds derived from method and path', () => {
  it.each([
    ['GET', '/api/sets/:id', { 200: z.object({}) }, 'getSet'],
    ['GET', '/api/sets', { 200: z.array(z.object({})) }, 'listSets'],
    ['POST', '/api/sets', { 201: z.object({}) }, 'createSet'],
    ['PUT', '/api/sets/:id', {}, 'updateSet'],
    ['DELETE', '/api/admin/sets/:id', {}, 'deleteAdminSet'],
    ['GET', '/api/me', { 200: z.object({}) }, 'getMe'],
    ['DELETE', '/api/me/sessions/:id', {}, 'deleteMeSession'],
    ['POST', '/api/login', { 200: z.object({}) }, 'postLogin'],
    ['POST', '/api/register', { 201: z.object({}) }, 'postRegister'],
    ['GET', '/api/register/:token', {}, 'getRegisterByToken'],
    ['GET', '/api/processes/:id/events', { 200: z.array(z.object({})) }, 'listProcessEvents'],
    ['PATCH', '/api/ai-location-imports/:batchId/items/:itemId', {}, 'updateAiLocationImportItem'],
    ['GET', '/cdn/*', {}, 'getCdnByPath'],
  ])('%s %s -> %s', (method, url, response, expected) => {
    expect(operationIdOf(method, url, response)).toBe(expected);
  });

  it('puts collection names in the singular', () => {
    expect(['processes', 'categories', 'details', 'batches', 'access', 'sets'].map(singular)).toEqual([
      'process',
      'category',
      'detail',
      'batch',
      'access',
      'set',
    ]);
  });
});

describe('OpenAPI document', () => {
  it('lists every route the app serves (but its own docs)', () => {
    const served = servedRoutes(ctx.app.printRoutes())
      .filter((route) => !/^(HEAD|OPTIONS) /.test(route))
      .filter((route) => !/ \/(docs|openapi\.json)(\/|$)/.test(route))
      .map((route) => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}'));
    const documented = operations.map(({ method, path: route }) => `${method} ${route}`);
    expect(served.length).toBeGreaterThan(90);
    expect(documented.sort()).toEqual([...new Set(served)].sort());
  });

  it('names every operation once, and lets a route choose its own name', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/sets/{id}']?.get?.operationId).toBe('getSet');
    expect(doc.paths['/api/sets']?.get?.operationId).toBe('listSets');
    expect(doc.paths['/api/mapping/autocomplete']?.get?.operationId).toBe('autocompletePlaces');
    expect(doc.paths['/api/analytics']?.post?.operationId).toBe('recordAnalyticsEvents');
  });

  it('documents the text/plain body of POST /api/analytics (sendBeacon) beside JSON', () => {
    const post = doc.paths['/api/analytics']?.post as { requestBody?: { content?: Record<string, unknown> } };
    expect(Object.keys(post.requestBody?.content ?? {}).sort()).toEqual(['application/json', 'text/plain']);
  });

  it('marks public routes with security [] and they answer without a token; the others answer 401', async () => {
    const publicOnes = operations.filter(({ operation }) => operation.security?.length === 0);
    const guarded = operations.filter(({ operation }) => operation.security?.length);
    expect(publicOnes.length + guarded.length).toBe(operations.length);
    expect(publicOnes.map(({ method, path: route }) => `${method} ${route}`)).toEqual(
      expect.arrayContaining([
        'GET /api/mapping/autocomplete',
        'GET /api/mapping/places',
        'POST /api/analytics',
      ]),
    );
    const url = (route: string) => route.replace('{id}', '1').replace(/\{[^}]+\}/g, 'x');
    for (const { method, path: route, operation } of operations) {
      const res = await ctx.app.inject({
        method: method as 'GET',
        url: url(route),
        remoteAddress: '10.77.0.1',
      });
      // The Paddle webhook is public but authenticates by signature (401 when wrong).
      if (operation.security?.length === 0 && route !== '/api/webhooks/paddle') {
        expect(res.statusCode, `${method} ${route}`).not.toBe(401);
      } else if (operation.security?.length) {
        expect(res.statusCode, `${method} ${route}`).toBe(401);
      }
    }
  });

  it('names the main bodies as components: responses as they are, request bodies as <name>Input', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names).toEqual(
      expect.arrayContaining([
        'Error',
        'User',
        'Session',
        'Workspace',
        'Set',
        'Tag',
        'CustomFieldDefinition',
        'Map',
        'Location',
        'Finder',
        'FinderPayload',
        'AnalyticsReport',
        'Process',
        'ProcessEvent',
        'AiImportBatch',
        'AiImportItem',
        'CreateLocationInput',
        'UpdateFinderInput',
        'BulkLocationsInput',
        'BulkLocationsResult',
      ]),
    );
    const json = (content: Content | undefined) => content?.content?.['application/json']?.schema;
    expect(json(doc.paths['/api/locations/{id}']?.get?.responses[200])).toEqual({
      $ref: '#/components/schemas/Location',
    });
    expect(json(doc.paths['/api/locations']?.post?.requestBody)).toEqual({
      $ref: '#/components/schemas/CreateLocationInput',
    });
    expect(json(doc.paths['/api/locations/bulk']?.post?.requestBody)).toEqual({
      $ref: '#/components/schemas/BulkLocationsInput',
    });
    expect(json(doc.paths['/api/locations/bulk']?.post?.responses[200])).toEqual({
      $ref: '#/components/schemas/BulkLocationsResult',
    });
    expect(json(doc.paths['/api/processes/{id}']?.get?.responses[200])).toEqual({
      $ref: '#/components/schemas/Process',
    });
    // Every component is used (no-unused-components) and no operation repeats the error body.
    expect(names).not.toContain('LocationInput');
    expect(doc.paths['/api/locations/{id}']?.get?.responses[404]).toEqual({
      $ref: '#/components/responses/NotFound',
    });
    expect(json(doc.components.responses.NotFound)).toEqual({ $ref: '#/components/schemas/Error' });
  });

  it('names the opening hours and holiday calendars, and the location and calendar bodies refer to them', () => {
    const schemas = doc.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    const orNull = (name: string) => ({
      anyOf: [{ $ref: `#/components/schemas/${name}` }, { type: 'null' }],
    });
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    expect(schemas.Location?.properties).toMatchObject({
      hours: orNull('WeeklyHours'),
      special_hours: orNull('SpecialHours'),
    });
    for (const input of ['CreateLocationInput', 'UpdateLocationInput']) {
      expect(schemas[input]?.properties).toMatchObject({
        hours: orNull('SetWeeklyHoursInput'),
        special_hours: orNull('SetSpecialHoursInput'),
      });
    }
    expect(schemas.HolidayCalendar?.properties?.days).toEqual(ref('SpecialHours'));
    const json = (content: Content | undefined) => content?.content?.['application/json']?.schema;
    const calendars = doc.paths['/api/holiday-calendars'];
    const calendar = doc.paths['/api/holiday-calendars/{id}'];
    expect(json(calendars?.get?.responses[200])).toEqual({ type: 'array', items: ref('HolidayCalendar') });
    expect(json(calendars?.post?.requestBody)).toEqual(ref('CreateHolidayCalendarInput'));
    expect(json(calendar?.get?.responses[200])).toEqual(ref('HolidayCalendar'));
    expect(json(calendar?.put?.requestBody)).toEqual(ref('UpdateHolidayCalendarInput'));
  });

  it('declares every id in a path or query string as an integer from 1 to 2147483647', () => {
    // Parameters named like ids that are not integer ids: provider and Paddle identifiers, and
    // the event stream's resume point (any text; a non-number resumes from the start).
    const notIds = new Set(['transactionId', 'place_id', 'last_event_id']);
    const ids = operations.flatMap(({ method, path: route, operation }) =>
      (operation.parameters ?? [])
        .filter((parameter) => /(^id$|Id$|_id$|_ids$)/.test(parameter.name) && !notIds.has(parameter.name))
        .map((parameter) => ({
          where: `${method} ${route} ${parameter.in} ${parameter.name}`,
          ...parameter,
        })),
    );
    expect(ids.filter((id) => id.in === 'path').length).toBeGreaterThanOrEqual(65);
    expect(ids.filter((id) => id.in === 'query').map((id) => id.name)).toEqual(
      expect.arrayContaining(['workspace_id', 'finder_id', 'user_id']),
    );
    for (const id of ids) {
      // after_id is a position in an event log (0: from the start), not the id of a resource.
      if (id.name === 'after_id') expect(id.schema, id.where).toMatchObject({ type: 'integer', minimum: 0 });
      else expect(id.schema, id.where).toEqual({ type: 'integer', minimum: 1, maximum: 2147483647 });
    }
  });

  it('declares the widget payload as its JSON schema and the process stream as text/event-stream', () => {
    const payload = doc.paths['/api/ext/finders/details/{key}']?.get?.responses[200];
    expect(payload?.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/FinderPayload' } },
    });
    // Its keys are held to the bytes by tests/finder-payload-schema.test.ts.
    expect(Object.keys(doc.components.schemas.FinderPayload?.properties ?? {})).toEqual(
      expect.arrayContaining([
        'advanced_refinements',
        'custom_fields',
        'id',
        'locations',
        'name',
        'sets',
        'settings',
        'tags',
        'token',
      ]),
    );
    expect(doc.components.schemas.FinderPayload?.additionalProperties).toBe(false);
    const stream = doc.paths['/api/processes/{id}/stream']?.get?.responses;
    expect(stream?.[200]?.content).toEqual({ 'text/event-stream': { schema: { type: 'string' } } });
    // Its errors are JSON like every other route's.
    expect(stream?.[404]).toEqual({ $ref: '#/components/responses/NotFound' });
  });

  it('declares the multipart forms of the uploads', () => {
    const form = (route: string) =>
      doc.paths[route]?.post?.requestBody?.content?.['multipart/form-data']?.schema.properties;
    expect(form('/api/locations/import')).toEqual({
      file: { type: 'string', format: 'binary', description: expect.any(String) },
      workspace_id: { type: 'integer', minimum: 1, maximum: 2147483647 },
    });
    expect(Object.keys(form('/api/locations/{id}/image') ?? {})).toEqual(['image']);
  });

  it('passes `redocly lint` with the recommended rules: no error, no warning', async () => {
    const dir = tempDir('openapi-');
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    writeFileSync(path.join(dir, '.redocly.lint-ignore.yaml'), LINT_IGNORE);
    // Redocly exits 1 when it finds errors; its JSON report is on stdout either way.
    const result = await run(
      process.execPath,
      [redoclyCli, 'lint', file, '--extends=recommended', '--format=json', '--max-problems=1000'],
      {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string; stderr?: string }) => error);
    const report = JSON.parse(result.stdout || '{}') as {
      totals?: { errors: number; warnings: number; ignored: number };
      problems?: RedoclyProblem[];
    };
    expect(report.problems, result.stderr).toBeInstanceOf(Array);
    const problems = report.problems!.map(
      (problem) =>
        `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`,
    );
    expect(problems).toEqual([]);
    // Exactly the accepted ones are ignored: none of them disappeared, none was added.
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 4 });
  });
});
