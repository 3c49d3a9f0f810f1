// GET /ext/finders/details/{key}/preview, the payload the dashboard's finder preview draws: the
// current data after a publish (never the published copy), for members whatever websites the
// finder lists; another user's finder, an unknown and a malformed key answer like a missing
// finder, and no token 401. The preview page itself (GET /app/preview): its policy, its
// frame-ancestors from `parent`, and a `parent` that is no origin refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDashboardBuilt } from '../scripts/build-dashboard.ts';
import { createPayloadScene, type PayloadScene } from './factories/finder-payloads.ts';
import { createCast } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

describe('the finder preview payload', () => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let scene: PayloadScene;
  const call = createCaller(() => ctx);

  beforeAll(async () => {
    ctx = await createTestContext();
    cast = await createCast(ctx.deps);
    scene = await createPayloadScene(ctx.deps, call, cast.ownerToken, cast.workspaceId, {
      authorizedUrls: ['https://shop.example'],
    });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('serves the current data after a publish, to a member, whatever websites the finder lists', async () => {
    const token = scene.finder.token;
    expect((await call('POST', `/ext/finders/details/${token}/sync`, cast.ownerToken)).statusCode).toBe(200);
    const renamed = await call('PUT', `/locations/${scene.locations.own}`, cast.ownerToken, {
      title: 'Renamed after publish',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);

    const res = await call('GET', `/ext/finders/details/${token}/preview`, cast.memberToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json() as { locations: { id: number; title: string }[]; authorized_urls: string[] };
    expect(body.locations.find((location) => location.id === scene.locations.own)?.title).toBe(
      'Renamed after publish',
    );
    expect(body.authorized_urls).toEqual(['https://shop.example']);
    // The public route refuses a request of no listed website; the published copy is older.
    const publicRes = await ctx.app.inject({ method: 'GET', url: `/api/ext/finders/details/${token}` });
    expect(publicRes.statusCode).toBe(403);
    const pointer = await ctx.app.inject({ method: 'GET', url: `/cdn/finders/${token}/config.json` });
    const published = await ctx.app.inject({
      method: 'GET',
      url: `/cdn/finders/${token}/${(pointer.json() as { url: string }).url}`,
    });
    expect(published.body).not.toContain('Renamed after publish');
    // Revalidation by its ETag.
    const again = await ctx.app.inject({
      method: 'GET',
      url: `/api/ext/finders/details/${token}/preview`,
      headers: { authorization: `Bearer ${cast.memberToken}`, 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it("answers 404 for another user's finder, an unknown key and a malformed one; 401 without a token", async () => {
    const url = `/ext/finders/details/${scene.finder.token}/preview`;
    const stranger = await call('GET', url, cast.strangerToken);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ message: 'Finder not found.', code: 'not_found' });
    expect(stranger.body).not.toContain('Own street');
    const admin = await call('GET', url, cast.adminToken);
    expect(admin.statusCode).toBe(404);
    const anonymous = await call('GET', url);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'unauthenticated' });
    const unknown = await call('GET', url.replace(scene.finder.token, 'B'.repeat(43)), cast.ownerToken);
    expect(unknown.statusCode).toBe(404);
    const malformed = await call('GET', url.replace(scene.finder.token, 'x%20y'), cast.ownerToken);
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('the finder preview page', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    await ensureDashboardBuilt();
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('is the preview script and widget.js, under a policy that connects nowhere', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/app/preview' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatch(/<script src="\/app\/assets\/preview-frame\.[A-Za-z0-9]+\.js"><\/script>/);
    expect(res.body).toContain(
      '<script src="/widget.js" data-api="/app/preview/api" data-cdn="/app/preview/cdn"></script>',
    );
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain('frame-ancestors *');
    expect(res.headers['x-frame-options']).toBeUndefined();
    const script = /src="(\/app\/assets\/preview-frame\.[^"]+)"/.exec(res.body)?.[1];
    const asset = await ctx.app.inject({ method: 'GET', url: String(script) });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toContain('lf-preview:payload');
  });

  it('admits the dashboard origin `parent` names as its framer', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/app/preview?parent=${encodeURIComponent('http://localhost:4321')}`,
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-security-policy'])).toContain(
      "frame-ancestors 'self' http://localhost:4321",
    );
  });

  it.each([
    ['not a URL', 'nope'],
    ['a path', 'http://localhost:4321/app'],
    ['another scheme', 'javascript://x'],
    ['a policy injected', "http://a.example; script-src 'unsafe-inline'"],
    // Hosts the URL parser keeps but a policy reads as a wildcard, a directive or a second policy.
    ['a wildcard host', 'https://*'],
    ['a directive in the host', 'http://a;sandbox'],
    ['a second policy in the host', 'http://x,y.com'],
  ])('refuses a parent that is %s (422)', async (_, parent) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/app/preview?parent=${encodeURIComponent(parent)}`,
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys((res.json() as { errors: Record<string, string[]> }).errors)).toEqual(['parent']);
    expect(String(res.headers['content-security-policy'])).not.toContain('a.example');
  });
});
