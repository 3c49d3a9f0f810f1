// The dashboard as its browser tests meet it: the real service (on a database of the test
// file's own) listening on 127.0.0.1 and serving the build at /app, a second origin serving the
// same build as a static site whose page names the service as its API (the dashboard as a
// separate client), a map tile server both pages' maps draw from (DASHBOARD_TILE_URL), and
// Chromium. Every page records what should never happen: a console
// error, a Content-Security-Policy violation, an uncaught exception, a request off this machine.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { ensureDashboardBuilt } from '../../../scripts/build-dashboard.ts';
import { ensureWidgetBuilt } from '../../../scripts/build-widget.ts';
import { freePort } from '../../../src/db/embedded.ts';
import {
  API_URL_META,
  dashboardDistDir,
  TILE_URL_META,
} from '../../../src/modules/dashboard-assets/dashboard-assets.manifest.ts';
import { bearer, createUser, tokenFor } from '../../factories/users.ts';
import { firstWorkspaceId } from '../../factories/workspaces.ts';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { launchChromium, openPage } from '../../widget/helpers/browser.ts';
import { listen, startTileServer, stop, type TileServer } from '../../widget/helpers/static-servers.ts';

export interface DashboardPage {
  page: Page;
  /** Console errors, CSP violations, page errors and requests off this machine, in order. */
  problems: string[];
  close(): Promise<void>;
}

/** Where the dashboard keeps its session (src/dashboard/api/session.ts). */
export const SESSION_KEY = 'lf-dashboard-session';

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface DashboardStage {
  /** The service: http://127.0.0.1:<port>; the dashboard is at /app. */
  origin: string;
  ctx: TestContext;
  /** The same build served by another origin, its API the service: http://localhost:<port>. */
  elsewhere: string;
  /** The tile server of the dashboard's maps (and of any finder's tile_url a test sets). */
  tiles: TileServer;
  open(path: string, options?: BrowserContextOptions, origin?: string): Promise<DashboardPage>;
  /** `path` opened already signed in with `token`, as a browser that signed in before has it. */
  openSignedIn(token: string, path: string, options?: BrowserContextOptions): Promise<DashboardPage>;
  /** Calls the API (`url` under /api) as `token`, to arrange or check data; a status of 300 or more throws. */
  api<T>(token: string, method: ApiMethod, url: string, body?: unknown): Promise<T>;
  /** A new user and their first workspace: someone whose data the test's user must not reach. */
  otherUser(): Promise<OtherUser>;
  /** A finder named `name` in a new other user's workspace, and that user. */
  othersFinder(name: string): Promise<OtherUser & { finderId: number }>;
  close(): Promise<void>;
}

export interface OtherUser {
  token: string;
  workspaceId: number;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.html': 'text/html; charset=utf-8',
};

/**
 * A static host of the build: files under /app/assets, and for every other /app path the
 * build's index.html naming `apiUrl` as the API (what a build with DASHBOARD_API_URL writes).
 */
async function startStaticHost(buildDir: string, apiUrl: string, tileUrl: string) {
  const page = (await readFile(path.join(buildDir, 'index.html'), 'utf8'))
    .replace(`<meta name="${API_URL_META}" content="">`, `<meta name="${API_URL_META}" content="${apiUrl}">`)
    .replace(
      new RegExp(`<meta name="${TILE_URL_META}" content="[^"]*">`),
      `<meta name="${TILE_URL_META}" content="${tileUrl}">`,
    );
  if (!page.includes(apiUrl)) throw new Error("the build's index.html has no empty API URL to fill in");
  const server = createServer(async (request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://host').pathname;
    if (pathname === '/app' || (pathname.startsWith('/app/') && !pathname.startsWith('/app/assets/'))) {
      response.writeHead(200, { 'content-type': CONTENT_TYPES['.html'] });
      return void response.end(page);
    }
    const file = path.join(buildDir, 'assets', path.basename(pathname));
    const body = pathname.startsWith('/app/assets/')
      ? await readFile(file).catch(() => undefined)
      : undefined;
    if (!body) return void response.writeHead(404).end();
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    });
    response.end(body);
  });
  const port = await listen(server);
  return { origin: `http://localhost:${port}`, close: () => stop(server) };
}

/** `env` adds to the service's settings (a fake provider's base URL and keys, say). */
export async function startDashboardStage(
  options: { env?: Record<string, string> } = {},
): Promise<DashboardStage> {
  // The service serves both builds; a fresh checkout has neither until something builds them.
  await Promise.all([ensureDashboardBuilt(), ensureWidgetBuilt()]);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const tiles = await startTileServer();
  const ctx = await createTestContext({
    env: { ...options.env, APP_URL: origin, DASHBOARD_TILE_URL: tiles.urlTemplate },
  });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  const host = await startStaticHost(dashboardDistDir, origin, tiles.urlTemplate);
  const browser: Browser = await launchChromium();

  async function open(pathname: string, options: BrowserContextOptions = {}, at = origin, token?: string) {
    const { page, outsideRequests, close } = await openPage(browser, options);
    const problems: string[] = [];
    page.on('console', (message) => {
      // An API error the screen handles (a wrong password's 401) is logged by Chromium too.
      if (
        message.type() === 'error' &&
        !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
      ) {
        problems.push(`console: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // Signed in before: the session is in the origin's storage when the app starts. The script
    // runs before the page's own, on the first load only, so a sign-out stays one after a reload.
    const session = JSON.stringify({ token, expiresAt: Date.now() + 3_600_000 });
    const signedIn = token
      ? await page.addInitScript(
          `if (location.origin === '${origin}') localStorage.setItem('${SESSION_KEY}', ${JSON.stringify(session)})`,
        )
      : undefined;
    await page.goto(`${at}${pathname}`);
    await signedIn?.dispose();
    return {
      page,
      get problems() {
        return [...problems, ...outsideRequests.map((url) => `outside request: ${url}`)];
      },
      close,
    };
  }

  async function api<T>(token: string, method: ApiMethod, url: string, body?: unknown): Promise<T> {
    const res = await ctx.app.inject({
      method,
      url: `/api${url}`,
      headers: bearer(token),
      payload: body as object,
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return (res.statusCode === 204 ? undefined : res.json()) as T;
  }

  async function otherUser(): Promise<OtherUser> {
    const user = await createUser(ctx.deps);
    return { token: await tokenFor(ctx.deps, user), workspaceId: await firstWorkspaceId(ctx.deps, user) };
  }

  return {
    origin,
    ctx,
    elsewhere: host.origin,
    tiles,
    open: (pathname, options, at) => open(pathname, options, at),
    openSignedIn: (token, pathname, options) => open(pathname, options, origin, token),
    api,
    otherUser,
    async othersFinder(name) {
      const other = await otherUser();
      const finder = await api<{ id: number }>(other.token, 'POST', '/finders', {
        name,
        workspace_id: other.workspaceId,
      });
      return { ...other, finderId: finder.id };
    },
    async close() {
      await browser.close();
      await host.close();
      await tiles.close();
      await ctx.close();
    },
  };
}
