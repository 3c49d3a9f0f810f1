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

// Source text: the test runner's transform would add helpers the page lacks. CONTEXT is what
// axe scans: the document, or the elements some selectors match.
const RUN_AXE = `(async (context) => {
  const results = await window.axe.run(context, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] });
  return {
    violations: results.violations.map((rule) => ({
      id: rule.id,
      impact: rule.impact,
      help: rule.help,
      targets: rule.nodes.map((node) => JSON.stringify(node.target)),
    })),
    passes: results.passes.length,
  };
})`;

/** The whole page, or only the elements `include` selects (with what they hold). */
export async function scanPage(page: Page, include?: string[]): Promise<PageScan> {
  // Added by evaluation, not a <script> element: the page's CSP admits no inline script.
  if (!(await page.evaluate('"axe" in window'))) await page.evaluate(axeSource);
  const context = include
    ? `{ include: ${JSON.stringify(include.map((selector) => [selector]))} }`
    : 'document';
  return (await page.evaluate(`${RUN_AXE}(${context})`)) as PageScan;
}
