// The fuzzer of `npm run fuzz` (scripts/fuzz/) at a small budget on every test run: requests
// generated from /openapi.json (valid ones for every operation as anonymous, user and admin,
// then mutated ones) against the app with its fakes, so a change that brings back a 500 for
// some body, string or parameter fails here, with the request that got it.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenApiDocument, readOperations } from '../scripts/fuzz/openapi.ts';
import { Random } from '../scripts/fuzz/random.ts';
import { Fuzzer, preview } from '../scripts/fuzz/run.ts';
import { emptyPool, Values } from '../scripts/fuzz/values.ts';
import { startWorld, type World } from '../scripts/fuzz/world.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { tempDir } from './helpers/temp.ts';

const SEED = 1;
const BUDGET = 1_500;

describe('against the app', () => {
  let database: TestDatabase;
  let world: World;
  beforeAll(async () => {
    database = await createTestDatabase();
    world = await startWorld({ databaseUrl: database.url, dataDir: path.join(tempDir('fuzz-'), 'data') });
  });
  afterAll(async () => {
    await world?.close();
    await database?.drop();
  });

  it(`answers ${BUDGET} generated requests (seed ${SEED}) without a 5xx`, { timeout: 300_000 }, async () => {
    const fuzzer = new Fuzzer(world, SEED);
    const report = await fuzzer.run({ seed: SEED, budget: BUDGET });
    const failures = report.failures.map(
      (failure) =>
        `${failure.method} ${failure.path} -> ${failure.status} ${failure.code ?? ''} x${failure.count}: ` +
        `${failure.request.caller} ${failure.request.mode} ${failure.request.note} ${failure.request.url} ` +
        `body ${preview(failure.request.payload, 300)}; reproduce: npm run fuzz -- --seed ${SEED} --budget ${failure.index}`,
    );
    expect(failures).toEqual([]);
    expect(report.requests).toBe(BUDGET);
    // Every operation was reached, and valid requests got through: the run tested real code paths.
    expect(Object.keys(report.byOperation)).toHaveLength(fuzzer.operationCount);
    expect(fuzzer.operationCount).toBeGreaterThan(100);
    expect(report.byClass['2xx']).toBeGreaterThan(BUDGET / 10);
  });
});

describe('the generator', () => {
  it('reads operations and draws values through $refs, with integer path parameters', () => {
    const document: OpenApiDocument = {
      paths: {
        '/api/sets/{id}': {
          parameters: [{ $ref: '#/components/parameters/Id' }],
          put: {
            operationId: 'updateSet',
            security: [{ bearerAuth: [] }],
            requestBody: { $ref: '#/components/requestBodies/SetBody' },
            responses: { 200: { $ref: '#/components/responses/Set' } },
          },
        },
      },
      components: {
        parameters: {
          Id: { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
        },
        requestBodies: {
          SetBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Set' } } },
          },
        },
        responses: {
          Set: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Set' } } } },
        },
        schemas: {
          Set: {
            type: 'object',
            required: ['name', 'workspace_id', 'tree'],
            properties: {
              name: { type: 'string', minLength: 1, maxLength: 20 },
              workspace_id: { $ref: '#/components/schemas/Id' },
              tree: { $ref: '#/components/schemas/Tree' },
            },
          },
          Id: { type: 'integer', exclusiveMinimum: 0, maximum: 2147483647 },
          Tree: {
            type: 'object',
            required: ['children'],
            properties: {
              children: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/Tree' } },
            },
          },
        },
      },
    };
    const [operation] = readOperations(document);
    expect(operation).toMatchObject({
      id: 'updateSet',
      method: 'PUT',
      bearer: true,
      streams: false,
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      body: { contentTypes: ['application/json'], required: true },
    });
    const pool = emptyPool();
    pool.ids.workspaces = [7];
    const values = new Values(document, new Random(3), () => pool);
    for (let draw = 0; draw < 20; draw++) {
      const body = values.sample(operation!.body!.schema) as {
        name: string;
        workspace_id: number;
        tree: unknown;
      };
      expect(body.name.length).toBeGreaterThanOrEqual(1);
      expect(body.name.length).toBeLessThanOrEqual(20);
      expect(Number.isInteger(body.workspace_id) && body.workspace_id > 0).toBe(true);
      expect(body.tree).toHaveProperty('children');
      expect(Number.isInteger(values.sample(operation!.parameters[0]!.schema, 'id'))).toBe(true);
    }
  });
});
