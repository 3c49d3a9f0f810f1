// Chromium reads every 413 (docs/api.md, Frame: bodies). Its fetch reads an answer only once the
// upload is sent, so a service that closed the connection after refusing a body left it with
// "Failed to fetch" from a page of the service's own origin (where the dashboard lives). Here
// pages of both origins (the service's /healthz, and a page on another port) upload 6 MB and
// 30 MB images, a CSV over 50 MB and a JSON body over 1 MiB, and read the error each time.
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwnerWithLocation } from '../factories/locations.ts';
import { bearer } from '../factories/users.ts';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { launchChromium, openPage, type TestPage } from './helpers/browser.ts';
import { type HostSite, startHostSite } from './helpers/static-servers.ts';

const MB = 1024 * 1024;

let ctx: TestContext;
let site: HostSite;
let browser: Browser;
let service: string;
let token: string;
let workspaceId: number;
let locationId: number;
const pages: TestPage[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  ({ token, workspaceId, locationId } = await createOwnerWithLocation(ctx));
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  service = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  site = await startHostSite();
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  for (const page of pages) await page.close();
  await browser?.close();
  await site?.close();
  await ctx?.close();
});

interface Upload {
  url: string;
  token?: string;
  /** An image of this many bytes in the form field `image`. */
  image?: number;
  /** A CSV of this many MiB in the form field `file`, with `workspace_id`. */
  csvMiB?: number;
  workspaceId?: number;
  /** A JSON body with a string of this many bytes. */
  json?: number;
}

// Source text, not a function: the test runner's transform would add helpers the page lacks.
const UPLOAD = `async (upload) => {
  const headers = {};
  if (upload.token) headers.authorization = 'Bearer ' + upload.token;
  let body;
  if (upload.image) {
    body = new FormData();
    body.append('image', new Blob([new Uint8Array(upload.image).fill(255)], { type: 'image/jpeg' }), 'photo.jpg');
  } else if (upload.csvMiB) {
    const line = 'title,address\\n' + 'Shop,1 Main Street\\n'.repeat(55000);
    const mib = line.slice(0, 1024 * 1024);
    body = new FormData();
    body.append('workspace_id', String(upload.workspaceId));
    body.append('file', new Blob(new Array(upload.csvMiB).fill(mib), { type: 'text/csv' }), 'big.csv');
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(upload.json) });
  }
  try {
    const response = await fetch(upload.url, { method: 'POST', headers, body });
    return { status: response.status, body: await response.json() };
  } catch (error) {
    return { error: String(error) };
  }
}`;

const upload = (page: Page, args: Upload) => page.evaluate(`(${UPLOAD})(${JSON.stringify(args)})`);

async function pageOn(origin: 'service' | 'other'): Promise<Page> {
  // A page of the service: /healthz, whose CSP (that of every API answer) would let it fetch
  // nothing, so the context sets CSP aside; what goes over the wire is the same.
  const opened = await openPage(browser, { bypassCSP: origin === 'service' });
  pages.push(opened);
  const url =
    origin === 'service' ? `${service}/healthz` : site.page('/blank', '<!doctype html><title>x</title>');
  await opened.page.goto(url);
  return opened.page;
}

const IMAGE_TOO_LARGE = {
  status: 413,
  body: { message: 'The image may not be larger than 5 MB.', code: 'payload_too_large' },
};
const TOO_LARGE = { status: 413, body: { message: 'The payload is too large.', code: 'payload_too_large' } };

describe.each(['service', 'other'] as const)('a page of the %s origin reads the 413', (origin) => {
  let page: Page;
  beforeAll(async () => {
    page = await pageOn(origin);
  });

  // Uploads of tens of MB on a busy machine: more than the default 20 s.
  it.each([6, 30])('for a %d MB image', { timeout: 60_000 }, async (mb) => {
    const url = `${service}/api/locations/${locationId}/image`;
    expect(await upload(page, { url, token, image: mb * MB })).toEqual(IMAGE_TOO_LARGE);
  });

  it('for a CSV over 50 MB', { timeout: 60_000 }, async () => {
    const url = `${service}/api/locations/import`;
    expect(await upload(page, { url, token, csvMiB: 51, workspaceId })).toEqual(TOO_LARGE);
  });

  it('for a JSON body over 1 MiB', async () => {
    expect(await upload(page, { url: `${service}/api/login`, json: 2 * MB })).toEqual(TOO_LARGE);
  });

  it('and the location kept no image', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations/${locationId}`,
      headers: bearer(token),
    });
    expect(res.json().image_url).toBeNull();
  });
});
