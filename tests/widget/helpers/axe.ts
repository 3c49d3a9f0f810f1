// axe-core inside the page, run on each widget host: axe walks into open shadow roots, so the
// scan covers the widget's whole rendered tree. Returns the violations (each with its rule and
// offending nodes) and which rules passed on nodes inside a shadow root, so a test can tell a
// clean scan from one that saw nothing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeSummary {
  violations: { id: string; impact: string | null; help: string; targets: string[] }[];
  /** Rules that threw instead of judging (axe then skips them silently): must stay empty. */
  errors: string[];
  /** Rules that passed on at least one node inside a shadow root. */
  shadowRules: string[];
}

// Kept as source text: the test runner's transform would add helpers (e.g. __name) to a
// function passed to evaluate, and those do not exist in the page.
//
// Leaflet gives tiles `mix-blend-mode: plus-lighter` (against hairline gaps in Chromium); axe's
// color-contrast cannot blend that mode and throws, skipping the rule for the whole page
// (dequelabs/axe-core#4170 covers its other missing modes). Tiles carry no text, so for the
// scan they blend normally.
const RUN_AXE = `(async () => {
  const hosts = [...document.querySelectorAll('[data-location-finder]')];
  for (const host of hosts) {
    if (!host.shadowRoot || host.shadowRoot.querySelector('style[data-axe-scan]')) continue;
    const style = document.createElement('style');
    style.dataset.axeScan = '';
    style.textContent = '.leaflet-tile { mix-blend-mode: normal !important; }';
    host.shadowRoot.append(style);
  }
  const results = await window.axe.run({ include: hosts }, {});
  const inShadow = (node) => Array.isArray(node.target[0]);
  return {
    errors: results.incomplete.filter((rule) => rule.error).map((rule) => rule.id + ': ' + rule.error.message),
    violations: results.violations.map((rule) => ({
      id: rule.id,
      impact: rule.impact,
      help: rule.help,
      targets: rule.nodes.map((node) => JSON.stringify(node.target)),
    })),
    shadowRules: results.passes.filter((rule) => rule.nodes.some(inShadow)).map((rule) => rule.id),
  };
})()`;

export async function scanWidgets(page: Page): Promise<AxeSummary> {
  if (!(await page.evaluate('"axe" in window'))) await page.addScriptTag({ content: axeSource });
  return (await page.evaluate(RUN_AXE)) as AxeSummary;
}
