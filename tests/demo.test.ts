// npm run demo's seeding and the /demo/{token} page, through the app: the account, 300
// locations, a published finder whose files the CDN serves, a page embedding the widget as a
// customer would, a run over what a run cut short left, and a run that reuses all of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOCATION_COUNT, demoFinderContent } from '../scripts/demo-content.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemo } from '../scripts/demo-seed.ts';
import { injectApi } from '../scripts/seed-finder.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

const tokenOf = (url: string) => new URL(url).pathname.replace('/demo/', '');

// Seeding writes 300 locations one request at a time, as a person's script would.
const SEED_TIMEOUT_MS = 90_000;

describe('npm run demo', () => {
  let url: string;

  it(
    'seeds over what a run cut short left: the account, a custom field, a set, a location and no finder',
    async () => {
      const registered = await ctx.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: {
          name: 'Northwind Demo',
          email: DEMO_EMAIL,
          password: DEMO_PASSWORD,
          password_confirmation: DEMO_PASSWORD,
        },
      });
      expect(registered.statusCode).toBe(201);
      const api = injectApi(ctx.app, (registered.json() as { token: string }).token);
      const [workspace] = await api<{ id: number }[]>('GET', '/workspaces');
      const content = demoFinderContent();
      const field = content.custom_fields[0]!;
      await api('POST', '/custom-field-definitions', {
        workspace_id: workspace!.id,
        name: field.name,
        label: field.label,
        type: field.type,
        ...(field.options ? { options: field.options } : {}),
      });
      await api('POST', '/sets', { workspace_id: workspace!.id, name: content.sets[0]!.name });
      await api('POST', '/locations', {
        workspace_id: workspace!.id,
        title: 'Half-seeded',
        address: '1 Main St',
      });

      url = await seedDemo(ctx.app, ctx.config);
      const locations = await api<unknown[]>('GET', `/locations?workspace_id=${workspace!.id}`);
      expect(locations).toHaveLength(DEMO_LOCATION_COUNT);
      const sets = await api<{ name: string }[]>('GET', `/sets?workspace_id=${workspace!.id}`);
      expect(sets.map((set) => set.name).sort()).toEqual(content.sets.map((set) => set.name).sort());
    },
    SEED_TIMEOUT_MS,
  );

  it(
    'answers the URL of a page embedding the widget, its finder published with 300 locations',
    async () => {
      expect(await seedDemo(ctx.app, ctx.config)).toBe(url);
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
      const payload = published.json() as {
        locations: { tags: string[] }[];
        sets: unknown[];
        tags: unknown[];
      };
      expect(payload.locations).toHaveLength(DEMO_LOCATION_COUNT);
      expect(payload.tags.length).toBeGreaterThan(0);
      expect(payload.sets.length).toBeGreaterThan(0);
    },
    SEED_TIMEOUT_MS,
  );

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
