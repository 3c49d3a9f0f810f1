// axe-core over a whole dashboard page: its violations (rule, impact, the nodes), and how many
// rules passed, so a test can tell a clean scan from one that saw nothing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface PageScan {
  violations: { id: string; impact: string | null; help: string; targets: string[] }[];
  passes: number;
}

// Source text: the test runner's transform would add helpers the page lacks.
const RUN_AXE = `(async () => {
  const results = await window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] });
  return {
    violations: results.violations.map((rule) => ({
      id: rule.id,
      impact: rule.impact,
      help: rule.help,
      targets: rule.nodes.map((node) => JSON.stringify(node.target)),
    })),
    passes: results.passes.length,
  };
})()`;

export async function scanPage(page: Page): Promise<PageScan> {
  // Added by evaluation, not a <script> element: the page's CSP admits no inline script.
  if (!(await page.evaluate('"axe" in window'))) await page.evaluate(axeSource);
  return (await page.evaluate(RUN_AXE)) as PageScan;
}
