// Headless Chromium for the browser tests and benchmarks: the system's /usr/bin/chromium
// driven by playwright-core (Playwright's own browser download is not used). Every launch
// gets a fresh profile. Pages only reach 127.0.0.1, localhost and its subdomains (which
// Chromium resolves to the loopback itself): any other request is aborted and recorded, so a
// test can prove nothing (map tiles included) came from the internet.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { projectRoot } from '../../../src/lib/project-root.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The phone every browser test opens pages on: 390x844 CSS pixels (a current iPhone's size),
 * a touch screen, and the page's meta viewport honoured as a phone's browser does.
 */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
};

/** The desktop window of the tests that compare a phone with a desktop. */
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

export function launchChromium(): Promise<Browser> {
  // launch() starts each browser on a new temporary profile (user-data dir) and removes it on close.
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

export interface TestPage {
  page: Page;
  /** URLs the page tried to load from anywhere but this machine. */
  outsideRequests: string[];
  close(): Promise<void>;
}

const LOCAL = /^https?:\/\/(127\.0\.0\.1|([a-z0-9-]+\.)*localhost)(:\d+)?\//;

export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<TestPage> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...options });
  const outsideRequests: string[] = [];
  await context.route(
    (url) => /^https?:/.test(url.protocol) && !LOCAL.test(url.href),
    (route) => {
      outsideRequests.push(route.request().url());
      return route.abort();
    },
  );
  const page = await context.newPage();
  return { page, outsideRequests, close: () => context.close() };
}

/** Screenshots are kept under .data/<folder>/ (the CI artifact), one per state. */
export async function screenshot(
  page: Page,
  name: string,
  folder = 'widget-screenshots',
  { fullPage = true } = {},
): Promise<string> {
  const dir = path.join(projectRoot, '.data', folder);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}
