// npm run demo's seeding and the /demo/{token} page, through the app: the account, 300
// locations, a published finder whose files the CDN serves, a page embedding the widget as a
// customer would, and a second run that reuses all of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOCATION_COUNT } from '../scripts/demo-content.ts';
import { DEMO_EMAIL, seedDemo } from '../scripts/demo-seed.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

const tokenOf = (url: string) => new URL(url).pathname.replace('/demo/', '');

describe('npm run demo', () => {
  let url: string;

  it('seeds an account, 300 locations and a published finder, and answers the demo page URL', async () => {
    url = await seedDemo(ctx.app, ctx.config);
    expect(url).toMatch(/^http:\/\/app\.test\/demo\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(url);

    const page = await ctx.app.inject({ method: 'GET', url: `/demo/${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(
      `<script src="http://app.test/widget.js" data-finder="${token}" async></script>`,
    );
    expect(page.body).toContain('<div data-location-finder></div>');
    expect(page.body).toContain('<title>Northwind Coffee shops · store locator demo</title>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");

    const pointer = await ctx.app.inject({ method: 'GET', url: `/cdn/finders/${token}/config.json` });
    expect(pointer.statusCode).toBe(200);
    const { hash } = pointer.json() as { hash: string };
    const published = await ctx.app.inject({ method: 'GET', url: `/cdn/finders/${token}/v/${hash}.json` });
    expect(published.statusCode).toBe(200);
    const payload = published.json() as { locations: { tags: string[] }[]; sets: unknown[]; tags: unknown[] };
    expect(payload.locations).toHaveLength(DEMO_LOCATION_COUNT);
    expect(payload.tags.length).toBeGreaterThan(0);
    expect(payload.sets.length).toBeGreaterThan(0);
  });

  it('reuses the account and the finder on a second run', async () => {
    const again = await seedDemo(ctx.app, ctx.config);
    expect(again).toBe(url);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: DEMO_EMAIL, password: 'northwind-demo-2026' },
    });
    expect(login.statusCode).toBe(200);
    const auth = { authorization: `Bearer ${(login.json() as { token: string }).token}` };
    const workspaces = (
      await ctx.app.inject({ method: 'GET', url: '/api/workspaces', headers: auth })
    ).json();
    const finders = await ctx.app.inject({
      method: 'GET',
      url: `/api/finders?workspace_id=${workspaces[0].id}`,
      headers: auth,
    });
    expect(finders.json()).toHaveLength(1);
  });

  it('answers 404 for an unknown or malformed token, and escapes nothing into the page', async () => {
    for (const token of ['x'.repeat(43), '%3Cscript%3E', 'short']) {
      const response = await ctx.app.inject({ method: 'GET', url: `/demo/${token}` });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'No finder has this token.', code: 'not_found' });
    }
  });
});
