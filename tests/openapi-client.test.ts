// The OpenAPI document as a generator uses it: openapi-typescript turns the document the app
// serves into types, a small openapi-fetch program written against them (no casts, no `any`)
// passes `tsc --strict`, and then runs against the real service on a real port: register, a
// location, a CSV import and its process, a finder with the location attached, publish, the
// widget payload. A second program passing a string where the document says integer must fail
// to compile, so the check cannot pass by accepting anything.
import { execFile } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { tempDir } from './helpers/temp.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

let ctx: TestContext;
let baseUrl: string;
let dir: string;

/** The client program: every value it sends and reads is typed by the generated schema. */
const PROGRAM = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const baseUrl = process.env.API_URL;
check(baseUrl !== undefined, 'API_URL is not set');
const client = createClient<paths>({ baseUrl });

const password = 'a long enough password';
const registered = await client.POST('/api/register', {
  body: { name: 'Client', email: 'client@example.test', password, password_confirmation: password },
});
check(registered.data !== undefined, \`register answered \${registered.response.status}\`);
const headers = { Authorization: \`Bearer \${registered.data.token}\` };
check(registered.data.user.email === 'client@example.test', 'register: another user');

const workspaces = await client.GET('/api/workspaces', { headers });
const workspace = workspaces.data?.[0];
check(workspace !== undefined, 'no workspace after register');

const location = await client.POST('/api/locations', {
  headers,
  body: { workspace_id: workspace.id, title: 'Corner Coffee', city: 'Berlin', lat: 52.52, lng: 13.405, tags: ['Espresso'] },
});
check(location.data !== undefined, \`create location answered \${location.response.status}\`);
check(location.data.tags[0]?.slug === 'espresso', 'the location lost its tag');

const imported = await client.POST('/api/locations/import', {
  headers,
  body: { file: 'title,address,city\\nHarbour Tea,Kai 1,Hamburg\\n', workspace_id: workspace.id },
  bodySerializer(body) {
    const form = new FormData();
    form.append('workspace_id', String(body.workspace_id));
    form.append('file', new Blob([body.file], { type: 'text/csv' }), 'shops.csv');
    return form;
  },
});
check(imported.data !== undefined, \`import answered \${imported.response.status}\`);
check(imported.data.created === 1, \`import created \${imported.data.created}\`);

const importProcess = await client.GET('/api/processes/{id}', {
  headers,
  params: { path: { id: imported.data.process_id } },
});
check(importProcess.data !== undefined, \`process answered \${importProcess.response.status}\`);
check(importProcess.data.type === 'csv_import' && importProcess.data.status === 'completed', 'the import process is not done');
check(importProcess.data.metadata.workspace_id === workspace.id, 'the process is of another workspace');

const finder = await client.POST('/api/finders', { headers, body: { name: 'Shops', workspace_id: workspace.id } });
check(finder.data !== undefined, \`create finder answered \${finder.response.status}\`);
const attached = await client.PUT('/api/finders/{id}', {
  headers,
  params: { path: { id: finder.data.id } },
  body: { locations: [{ location_id: location.data.id }], settings: [{ key: 'units', value: 'km' }] },
});
check(attached.data?.locations[0]?.location_id === location.data.id, 'the location was not attached');

const published = await client.POST('/api/ext/finders/details/{key}/sync', {
  headers,
  params: { path: { key: finder.data.token } },
});
check(published.data !== undefined && /^[0-9a-f]{40}$/.test(published.data.hash), 'publish gave no hash');

const payload = await client.GET('/api/ext/finders/details/{key}', { params: { path: { key: finder.data.token } } });
check(payload.data !== undefined, \`payload answered \${payload.response.status}\`);
const shown = payload.data.locations[0];
check(payload.data.locations.length === 1 && shown?.id === location.data.id, 'the payload lacks the location');
check(shown.title === 'Corner Coffee' && shown.tags[0] === 'espresso', 'the payload location differs');
check(payload.data.tags[0]?.name === 'Espresso' && payload.data.settings[0]?.value === 'km', 'payload tags or settings');

const missing = await client.GET('/api/locations/{id}', { headers, params: { path: { id: 2147483647 } } });
check(missing.response.status === 404 && missing.error?.code === 'not_found', 'a missing location is not a typed 404');

console.log(JSON.stringify({ ok: true, process: importProcess.data.id, hash: published.data.hash }));
`;

/** Sends a string where the document says integer: tsc must refuse it. */
const WRONG_PROGRAM = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1' });
await client.GET('/api/locations/{id}', { params: { path: { id: '1' } } });
`;

const tsconfig = (file: string) =>
  JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      // The libraries' own declarations are not under test (and checking them costs seconds).
      skipLibCheck: true,
      target: 'ES2023',
      lib: ['ES2023'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      allowImportingTsExtensions: true,
      noUncheckedIndexedAccess: true,
      types: ['node'],
    },
    files: [file],
  });

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  dir = tempDir('openapi-client-');
  // The program's imports (openapi-fetch, tsx, @types/node) resolve to the project's packages.
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(path.join(dir, 'program.ts'), PROGRAM);
  writeFileSync(path.join(dir, 'wrong.ts'), WRONG_PROGRAM);
  writeFileSync(path.join(dir, 'tsconfig.json'), tsconfig('program.ts'));
  writeFileSync(path.join(dir, 'tsconfig.wrong.json'), tsconfig('wrong.ts'));
});
afterAll(async () => {
  await ctx?.close();
});

const typecheck = (project: string) =>
  run(process.execPath, [tsc, '-p', project], { cwd: dir }).then(
    () => ({ code: 0, output: '' }),
    (error: { code?: number; stdout?: string }) => ({ code: error.code ?? 1, output: error.stdout ?? '' }),
  );

it('generates a client from /openapi.json that type-checks and works against the service', async () => {
  const res = await fetch(`${baseUrl}/openapi.json`);
  expect(res.status).toBe(200);
  const schema = astToString(await openapiTS(await res.text()));
  // Named types, integer ids, the payload's own schema.
  expect(schema).toMatch(/\bLocation: \{/);
  expect(schema).toMatch(/\bFinderPayload: \{/);
  expect(schema).toContain('"application/json": components["schemas"]["FinderPayload"]');
  writeFileSync(path.join(dir, 'schema.ts'), schema);

  const [checked, refused] = await Promise.all([
    typecheck('tsconfig.json'),
    typecheck('tsconfig.wrong.json'),
  ]);
  expect(checked.output).toBe('');
  expect(checked.code).toBe(0);
  // The negative program fails on the string id, and only there.
  expect(refused.code).not.toBe(0);
  expect(refused.output).toMatch(
    /^wrong\.ts\(6,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/m,
  );

  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'program.ts'], {
    cwd: dir,
    env: { ...process.env, API_URL: baseUrl },
  });
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    ok: boolean;
    process: number;
    hash: string;
  };
  expect(result.ok).toBe(true);
  expect(result.hash).toMatch(/^[0-9a-f]{40}$/);
}, 120_000);
