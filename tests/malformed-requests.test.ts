// Requests that are not well-formed HTTP or not well-formed multipart get our error body
// `{message, code}` with a 4xx, never a 500, never Fastify's `{error, message, statusCode}`,
// and never an echo of the request (issue 14, points 4 and 5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { firstWorkspaceId } from './factories/workspaces.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let ownerHeaders: Record<string, string>;
let adminHeaders: Record<string, string>;
let workspaceId: number;
let locationId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  const owner = await createUser(ctx.deps);
  ownerHeaders = bearer(await tokenFor(ctx.deps, owner));
  adminHeaders = bearer(await tokenFor(ctx.deps, await createUser(ctx.deps, { role: 'admin' })));
  workspaceId = await firstWorkspaceId(ctx.deps, owner);
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/locations',
    headers: ownerHeaders,
    payload: { workspace_id: workspaceId, title: 'Shop' },
  });
  locationId = created.json().id;
});
afterAll(async () => {
  await ctx?.close();
});

const BOUNDARY = 'xYzBoundary42';

/** The upload routes, member and admin mounts, with the file field each one reads. */
const uploadRoutes = () => [
  { url: `/api/locations/${locationId}/image`, headers: ownerHeaders, field: 'image' },
  { url: `/api/admin/locations/${locationId}/image`, headers: adminHeaders, field: 'image' },
  { url: '/api/locations/import', headers: ownerHeaders, field: 'file' },
  { url: '/api/admin/locations/import', headers: adminHeaders, field: 'file' },
];

const head = (field: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="workspace_id"\r\n\r\n${workspaceId}\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="a.csv"\r\n` +
  'Content-Type: text/csv\r\n\r\n';

describe('malformed multipart bodies on the upload routes', () => {
  it('answers 415 for multipart/form-data without a usable boundary', async () => {
    for (const { url, headers, field } of uploadRoutes()) {
      for (const contentType of [
        'multipart/form-data',
        'multipart/form-data; charset=utf-8',
        'multipart/form-data; boundary=',
        `multipart/form-data; boundary=${'b'.repeat(300)}`,
      ]) {
        const res = await ctx.app.inject({
          method: 'POST',
          url,
          headers: { ...headers, 'content-type': contentType },
          payload: `${head(field)}title,address\r\n`,
        });
        expect(res.statusCode, `${url} ${contentType}`).toBe(415);
        expect(res.json()).toEqual({
          message: 'The request must be multipart/form-data with a boundary.',
          code: 'unsupported_media_type',
        });
      }
    }
  });

  it('answers 400 for a body cut short or not matching its boundary', async () => {
    for (const { url, headers, field } of uploadRoutes()) {
      for (const [what, payload] of [
        ['cut short in a file', `${head(field)}title,address\r\nShop,1 Main`],
        ['cut short in a part header', `--${BOUNDARY}\r\nContent-Disposition: form-da`],
        ['no boundary line at all', 'just some bytes that are not multipart'],
      ]) {
        const res = await ctx.app.inject({
          method: 'POST',
          url,
          headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
          payload,
        });
        expect(res.statusCode, `${url} ${what}`).toBe(400);
        expect(res.json(), `${url} ${what}`).toEqual({
          message: 'The multipart body is malformed.',
          code: 'bad_request',
        });
      }
    }
  });
});
