// Requests that are not well-formed HTTP or not well-formed multipart get our error body
// `{message, code}` with a 4xx, never a 500, never Fastify's `{error, message, statusCode}`,
// and never an echo of the request.

import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwnerWithLocation } from './factories/locations.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let ownerHeaders: Record<string, string>;
let adminHeaders: Record<string, string>;
let workspaceId: number;
let locationId: number;
let port: number;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
  const owner = await createOwnerWithLocation(ctx);
  ({ workspaceId, locationId } = owner);
  ownerHeaders = bearer(owner.token);
  adminHeaders = bearer(await tokenFor(ctx.deps, await createUser(ctx.deps, { role: 'admin' })));
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

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are (no client library to tidy them up) and reads the answer until the server closes. */
function raw(bytes: string, to = port): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(to, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error(`no answer to ${JSON.stringify(bytes)}`)), 5000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseResponse(Buffer.concat(chunks).toString('latin1')));
    });
    socket.write(bytes, 'latin1');
  });
}

function parseResponse(text: string): RawResponse {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

/** The answer is ours: JSON `{message, code}` and nothing else (no `error`, no `statusCode`). */
function expectOurs(res: RawResponse, status: number, code: string, what: string) {
  expect(res.status, what).toBe(status);
  expect(res.headers['content-type'], what).toMatch(/^application\/json/);
  const body = JSON.parse(res.body);
  expect(Object.keys(body).sort(), what).toEqual(['code', 'message']);
  expect(body.code, what).toBe(code);
  return body as { message: string; code: string };
}

describe('malformed HTTP gets our error body and is never echoed', () => {
  it('answers a bad URL encoding with 400 without echoing the URL', async () => {
    const res = await raw('GET /api/%ff%3Cscript%3E HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(expectOurs(res, 400, 'bad_request', '%ff').message).toBe('The URL is malformed.');
    expect(res.body).not.toMatch(/%ff|script/i);
  });

  it('answers an over-long path parameter with 414 without echoing it', async () => {
    const token = `echo${'x'.repeat(200)}`;
    const res = await raw(`GET /api/register/${token} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(expectOurs(res, 414, 'bad_request', 'long param').message).toBe('The URL is too long.');
    expect(res.body).not.toContain('echo');
  });

  it('answers a method no route takes with our 404, and one HTTP does not know with 400', async () => {
    const propfind = await raw('PROPFIND /api/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expectOurs(propfind, 404, 'not_found', 'PROPFIND');
    const unknown = await raw('FROBNICATE /api/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expectOurs(unknown, 400, 'bad_request', 'FROBNICATE');
  });

  it('answers conflicting Content-Length and Transfer-Encoding, and garbage, with 400', async () => {
    const smuggled = await raw(
      'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\n' +
        'Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expectOurs(smuggled, 400, 'bad_request', 'CL+TE');
    const garbage = await raw('this is not http\r\n\r\n');
    expect(expectOurs(garbage, 400, 'bad_request', 'garbage').message).toBe(
      'The request could not be understood.',
    );
  });

  it('answers headers over the size limit with 431', async () => {
    const res = await raw(`GET /api/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectOurs(res, 431, 'headers_too_large', 'big header');
  });

  it('answers an OPTIONS request that is not a CORS preflight with 400', async () => {
    for (const headers of [
      '',
      'Origin: https://shop.example\r\n',
      'Access-Control-Request-Method: GET\r\n',
    ]) {
      const res = await raw(`OPTIONS /api/me HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`);
      expect(expectOurs(res, 400, 'bad_request', `OPTIONS ${headers}`).message).toBe(
        'An OPTIONS request must be a CORS preflight (Origin and Access-Control-Request-Method).',
      );
    }
  });

  it("answers requests that arrive while the server is closing with 503 service_unavailable, and never with Fastify's body", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived!: () => void;
    const slowArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const closing = await createTestContext({
      extend: (app) => {
        app.get('/api/__probe/slow', async () => {
          arrived();
          await held;
          return { ok: true };
        });
      },
    });
    try {
      await closing.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (closing.app.server.address() as AddressInfo).port;
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      const socketClosed = new Promise((resolve) => socket.on('close', resolve));
      // A second client has begun a request (its headers are under way) when the close begins:
      // the connection is not idle, so it stays, and its request reaches the router only then.
      const late = connect(port, '127.0.0.1');
      const lateChunks: Buffer[] = [];
      late.on('data', (chunk) => lateChunks.push(chunk));
      const lateClosed = new Promise((resolve) => late.on('close', resolve));
      late.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      // The first request holds the server open while it closes; a second one is pipelined on
      // the same keep-alive connection after close() began.
      socket.write('GET /api/__probe/slow HTTP/1.1\r\nHost: x\r\n\r\n');
      await slowArrived;
      const closed = closing.app.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      late.write('\r\n');
      await lateClosed;
      const lateAnswer = parseResponse(Buffer.concat(lateChunks).toString('latin1'));
      const body = expectOurs(lateAnswer, 503, 'service_unavailable', 'closing');
      expect(body.message).toBe('The service is shutting down. Try again.');
      expect(lateAnswer.headers.connection).toBe('close');
      release();
      await socketClosed;
      await closed;
      // On the socket, the answer in flight ends its connection (Connection: close), so the
      // pipelined request is dropped with it: never answered with Fastify's own 503 body.
      const text = Buffer.concat(chunks).toString('latin1');
      const first = parseResponse(text);
      expect(first.status).toBe(200);
      expect(first.headers.connection).toBe('close');
      const rest = text.slice(text.indexOf('HTTP/1.1', 1));
      if (text.indexOf('HTTP/1.1', 1) > 0)
        expectOurs(parseResponse(rest), 503, 'service_unavailable', 'pipelined');
      expect(text).not.toContain('statusCode');
    } finally {
      release();
      await closing.deps.close();
      await closing.database.drop();
    }
  });
});
