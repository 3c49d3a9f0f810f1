// HTTP hygiene: CORS for a dashboard on another origin, security headers on
// every response with a CSP under which Swagger UI still works, no caching of token-bearing and
// authenticated answers, 413 before an oversized body is read, canonical integer ids only.

import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwnerWithLocation } from './factories/locations.ts';
import { bearer, DEFAULT_PASSWORD } from './factories/users.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let headers: Record<string, string>;
let email: string;
let workspaceId: number;
let locationId: number;
let port: number;

beforeAll(async () => {
  ctx = await createTestContext();
  const owner = await createOwnerWithLocation(ctx);
  ({ workspaceId, locationId } = owner);
  email = owner.user.email;
  headers = bearer(owner.token);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await ctx?.close();
});

const DASHBOARD = 'https://dashboard.example';

describe('CORS', () => {
  it('lets a dashboard on another origin PUT, PATCH and DELETE with the headers the API uses', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const res = await ctx.app.inject({
        method: 'OPTIONS',
        url: `/api/locations/${locationId}`,
        headers: {
          origin: DASHBOARD,
          'access-control-request-method': method,
          'access-control-request-headers': 'authorization, content-type, x-request-id, if-none-match',
        },
      });
      expect(res.statusCode, method).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(DASHBOARD);
      const methods = String(res.headers['access-control-allow-methods']).split(/,\s*/);
      expect(methods).toEqual(
        expect.arrayContaining(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']),
      );
      const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
      expect(allowed).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'x-request-id', 'if-none-match']),
      );
      expect(Number(res.headers['access-control-max-age'])).toBeGreaterThanOrEqual(600);
    }
  });

  it('exposes X-Total-Count, X-Request-Id, Retry-After and ETag to the calling page', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations?workspace_id=${workspaceId}&limit=1`,
      headers: { ...headers, origin: DASHBOARD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(DASHBOARD);
    const exposed = String(res.headers['access-control-expose-headers']).toLowerCase().split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['x-total-count', 'x-request-id', 'retry-after', 'etag']));
  });
});

describe('security headers', () => {
  const expectBaseHeaders = (res: { headers: Record<string, unknown> }, what: string) => {
    expect(res.headers['x-content-type-options'], what).toBe('nosniff');
    expect(res.headers['x-frame-options'], what).toBe('DENY');
    expect(String(res.headers['content-security-policy']), what).toContain("frame-ancestors 'none'");
    expect(res.headers['cross-origin-resource-policy'], what).toBe('cross-origin');
    expect(res.headers['referrer-policy'], what).toBe('no-referrer');
  };

  it('sends them on API answers, errors and health checks, with a CSP that allows nothing to load', async () => {
    for (const [url, status] of [
      ['/api/me', 200],
      ['/api/nope', 404],
      ['/healthz', 200],
    ] as const) {
      const res = await ctx.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(status);
      expectBaseHeaders(res, url);
      expect(res.headers['content-security-policy'], url).toContain("default-src 'none'");
    }
  });

  it('keeps /cdn files usable from another origin', async () => {
    await ctx.deps.storage.put('finders/abc/config.json', Buffer.from('{}'), {
      contentType: 'application/json',
      cacheControl: 'public, max-age=60',
    });
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/cdn/finders/abc/config.json',
      headers: { origin: 'https://shop.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
  });

  it('serves /docs with a CSP that allows what Swagger UI loads, and no framing', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expectBaseHeaders(page, '/docs/');
    const csp = String(page.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .filter((words) => words[0])
        .map(([name, ...sources]) => [name, sources]),
    );
    // What index.html loads: its own scripts and styles, then ./json with fetch.
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    const styles = [...page.body.matchAll(/<link rel="stylesheet" type="text\/css" href="([^"]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(scripts.length).toBeGreaterThan(0);
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)/); // no inline script to allow
    for (const asset of [...scripts, ...styles]) {
      expect(asset.startsWith('./static/'), asset).toBe(true); // same origin: 'self'
      const res = await ctx.app.inject({ method: 'GET', url: `/docs/${asset.slice(2)}` });
      expect(res.statusCode, asset).toBe(200);
      expectBaseHeaders(res, asset);
    }
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['style-src']).toContain("'self'");
    expect(directives['connect-src']).toContain("'self'");
    expect(directives['img-src']).toEqual(expect.arrayContaining(["'self'", 'data:']));
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    const spec = await ctx.app.inject({ method: 'GET', url: '/docs/json' });
    expect(spec.statusCode).toBe(200);
  });

  it('sends Strict-Transport-Security only when the app is served over https', async () => {
    const plain = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const secure = await createTestContext({ env: { APP_URL: 'https://api.example' } });
    try {
      const res = await secure.app.inject({ method: 'GET', url: '/healthz' });
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
    } finally {
      await secure.close();
    }
  });
});

describe('Cache-Control', () => {
  it('is no-store on answers that carry a token and on authenticated answers', async () => {
    const answers = [
      await ctx.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: {
          name: 'Cache',
          email: `cache-${Date.now()}@example.test`,
          password: 'password123',
          password_confirmation: 'password123',
        },
      }),
      await ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email, password: DEFAULT_PASSWORD },
      }),
      await ctx.app.inject({
        method: 'POST',
        url: '/api/login/2fa',
        payload: { challenge_token: 'x', code: '1' },
      }),
      await ctx.app.inject({ method: 'GET', url: '/api/register/some-invite-token' }),
      await ctx.app.inject({ method: 'GET', url: '/api/me', headers }),
      await ctx.app.inject({ method: 'GET', url: `/api/locations/${locationId}`, headers }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([201, 200, 401, 404, 200, 200]);
    for (const res of answers) expect(res.headers['cache-control'], res.raw.req.url).toBe('no-store');
  });
});

interface Early {
  status: number;
  text: string;
  bytesSent: number;
  closedByServer: boolean;
}

/**
 * Sends the head of a request declaring `declared` body bytes, then the body slowly, and
 * reports how much had been sent when the answer came. With `waitForClose`, only the head is
 * sent (a server closing a connection whose bytes it has not read resets it, which may cost the
 * client the answer), and the result says whether the server then closed the connection within
 * 5 s rather than wait for the body.
 */
function sendOversized(head: string, declared: number, waitForClose: boolean): Promise<Early> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let bytesSent = 0;
    let answered = false;
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const pump = setInterval(() => {
      if (waitForClose || answered || socket.destroyed || bytesSent >= declared) return;
      socket.write(chunk);
      bytesSent += chunk.length;
    }, 20);
    const timer = setTimeout(() => finish(false), 5000);
    function finish(closedByServer: boolean) {
      clearInterval(pump);
      clearTimeout(timer);
      socket.destroy();
      const status = Number(text.split(' ')[1]);
      if (!text) reject(new Error(`no answer after ${bytesSent} body bytes`));
      else resolve({ status, text, bytesSent, closedByServer });
    }
    socket.on('data', (data) => {
      answered = true;
      text += data.toString('latin1');
      if (!waitForClose && text.endsWith('}')) finish(false);
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.write(head.replace('{LENGTH}', String(declared)));
  });
}

const JSON_HEAD =
  'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {LENGTH}\r\n\r\n';

const uploadHead = (url: string) =>
  `POST ${url} HTTP/1.1\r\nHost: x\r\nAuthorization: ${headers.authorization}\r\n` +
  'Content-Type: multipart/form-data; boundary=b0undary\r\nContent-Length: {LENGTH}\r\n\r\n';

// What follows the answer (the rest read and discarded, the connection kept) is in
// tests/payload-too-large.test.ts and tests/body-drain.test.ts.
describe('413 before the body is read', () => {
  it('answers a JSON body whose declared length is over the limit at once, keeping the connection', async () => {
    const res = await sendOversized(JSON_HEAD, 60 * 1024 * 1024, false);
    expect(res.status).toBe(413);
    expect(res.bytesSent).toBeLessThan(1024 * 1024);
    expect(res.text).toContain('"code":"payload_too_large"');
    expect(res.text).not.toMatch(/connection: close/i);
  });

  it('refuses uploads declaring more than the route takes (image 5 MB, CSV 50 MB) before streaming them', async () => {
    for (const [url, declared, message] of [
      [`/api/locations/${locationId}/image`, 6 * 1024 * 1024, 'The image may not be larger than 5 MB.'],
      ['/api/locations/import', 60 * 1024 * 1024, 'The payload is too large.'],
    ] as const) {
      const res = await sendOversized(uploadHead(url), declared, false);
      expect(res.status, url).toBe(413);
      expect(res.bytesSent, url).toBeLessThan(1024 * 1024);
      expect(res.text, url).toContain(`{"message":"${message}","code":"payload_too_large"}`);
      expect(res.text, url).not.toMatch(/connection: close/i);
    }
  });

  it('closes the connection after the answer when the declared length is past what it would read', async () => {
    const MiB = 1024 * 1024;
    for (const [head, declared] of [
      [JSON_HEAD, 64 * MiB + 1],
      [uploadHead(`/api/locations/${locationId}/image`), 64 * MiB + 1],
      // Four times the route's limit (50 MB plus 64 KiB for the rest of the form).
      [uploadHead('/api/locations/import'), 4 * (50 * MiB + 64 * 1024) + 1],
    ] as const) {
      const res = await sendOversized(head, declared, true);
      expect(res.status, head).toBe(413);
      expect(res.text, head).toMatch(/connection: close/i);
      expect(res.text, head).toContain('"code":"payload_too_large"');
      expect(res.closedByServer, head).toBe(true);
    }
  });
});

describe('canonical ids', () => {
  it('answers path ids that are not canonical decimal integers with 404, like an unknown id', async () => {
    for (const id of ['1e0', '0x1', '1.0', '+1', '01', '%201', '1%20', `${locationId}.0`, `0${locationId}`]) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/locations/${id}`, headers });
      expect(res.statusCode, id).toBe(404);
      expect(res.json(), id).toEqual({ message: 'Not found.', code: 'not_found' });
    }
    const canonical = await ctx.app.inject({ method: 'GET', url: `/api/locations/${locationId}`, headers });
    expect(canonical.statusCode).toBe(200);
  });

  it('answers query ids that are not canonical with 422 naming the parameter', async () => {
    for (const url of [
      `/api/locations?workspace_id=${workspaceId}e0`,
      `/api/locations?workspace_id=0${workspaceId}`,
      '/api/locations?finder_id=0x1',
      `/api/sets?workspace_id=${workspaceId}.0`,
      '/api/maps?workspace_id=%2B1',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(422);
      const field = url.includes('finder_id') ? 'finder_id' : 'workspace_id';
      expect(Object.keys(res.json().errors), url).toEqual([field]);
    }
  });
});
