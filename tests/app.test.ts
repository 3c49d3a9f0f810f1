// The app's frame (docs/api.md, Frame): health, docs, error bodies (docs/api.md, Errors), request
// ids, CORS and logs.

import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.ts';
import { idParamsSchema } from '../src/lib/schemas.ts';
import { bearer, createUser, DEFAULT_PASSWORD, tokenFor } from './factories/users.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(chunk.toString());
    done();
  },
});

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    logger: createLogger({ logLevel: 'debug' }, sink),
    extend: (app) => {
      // Probe routes: an unexpected failure, a path id, a route rate limit.
      app.get('/api/__probe/items/:id', { schema: { params: idParamsSchema } }, async (request) => ({
        id: (request.params as { id: number }).id,
      }));
      app.get('/api/__probe/boom', async () => {
        throw new Error('kaboom: secret internals');
      });
      app.get(
        '/api/__probe/limited',
        { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } },
        async () => ({
          ok: true,
        }),
      );
    },
  });
});
afterAll(async () => {
  await ctx?.close();
});

describe('health and docs', () => {
  it('serves /healthz and /readyz', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok' });
  });

  it('generates an OpenAPI 3.1 document from the route schemas', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/register',
        '/api/login',
        '/api/logout',
        '/api/me',
        '/healthz',
        '/readyz',
      ]),
    );
    const register = doc.paths['/api/register'].post;
    expect(register.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/RegisterInput',
    });
    expect(doc.components.schemas.RegisterInput.required).toEqual(
      expect.arrayContaining(['name', 'email', 'password', 'password_confirmation']),
    );
    expect(register.responses['201']).toBeDefined();
    expect(doc.paths['/api/me'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});

describe('error bodies', () => {
  it('answers 404 for an unknown route, inside and outside /api', async () => {
    for (const url of ['/api/nope', '/nope']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found.', code: 'not_found' });
    }
  });

  it('answers 404 for a path id that is not a positive 32-bit integer', async () => {
    for (const id of ['abc', '0', '-3', '1.5', '99999999999']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/__probe/items/${id}` });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found.', code: 'not_found' });
    }
    const ok = await ctx.app.inject({ method: 'GET', url: '/api/__probe/items/42' });
    expect(ok.json()).toEqual({ id: 42 });
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'The payload is too large.', code: 'payload_too_large' });
  });

  it('answers 415 for a body type the route does not take', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ message: 'Unsupported media type.', code: 'unsupported_media_type' });
  });

  it('treats an empty JSON body as no body', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['email', 'password']);
  });

  it('answers 429 with Retry-After from a route rate limit', async () => {
    const call = () =>
      ctx.app.inject({ method: 'GET', url: '/api/__probe/limited', remoteAddress: '10.0.0.42' });
    expect((await call()).statusCode).toBe(200);
    expect((await call()).statusCode).toBe(200);
    const limited = await call();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: 'Too many requests.', code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Limits are per IP.
    const other = await ctx.app.inject({
      method: 'GET',
      url: '/api/__probe/limited',
      remoteAddress: '10.0.0.43',
    });
    expect(other.statusCode).toBe(200);
  });

  it('answers 500 without the stack, and logs the stack', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/__probe/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Server error.', code: 'internal_error' });
    expect(res.body).not.toContain('kaboom');
    const logged = logLines.find((line) => line.includes('kaboom'));
    expect(logged).toBeDefined();
    expect(JSON.parse(logged!).err.stack).toContain('app.test.ts');
  });
});

describe('request ids, CORS and logs', () => {
  it('sends a request id, and keeps a sane one given by the caller', async () => {
    const made = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await ctx.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await ctx.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id\nwith newline' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers CORS preflights', async () => {
    const res = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/api/me',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://shop.example');
  });

  it('never writes passwords or bearer tokens to the log', async () => {
    const user = await createUser(ctx.deps);
    const token = await tokenFor(ctx.deps, user);
    logLines.length = 0;
    await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password: DEFAULT_PASSWORD },
    });
    await ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
    // A log call that carries headers and a body, as a careless handler might write.
    ctx.app.log.info({
      req: { headers: { authorization: `Bearer ${token}` } },
      body: { password: 'hunter22' },
    });
    const all = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(2);
    expect(all).not.toContain(DEFAULT_PASSWORD);
    expect(all).not.toContain(token);
    expect(all).not.toContain('hunter22');
    expect(all).toContain('[redacted]');
  });
});
