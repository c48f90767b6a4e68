import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let axeSource: string | null = null;

/** The WCAG 2.1 levels A and AA (axe tags its rules by the version that introduced them). */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING_IMPACTS = ['serious', 'critical'];

/**
 * A finding that is known, reported and left to another change (say why). It matches a node of
 * rule `rule` that lies inside `selector` (when given) and, for color-contrast, whose foreground
 * colour axe measured as `fg` (when given, e.g. '#1677ff').
 */
export interface KnownA11yIssue {
  rule: string;
  selector?: string;
  fg?: string;
  why: string;
}

export interface A11yOptions {
  /** CSS selectors axe leaves out altogether. */
  exclude?: string[];
  /** Findings printed as known instead of failing. */
  known?: KnownA11yIssue[];
  /** A name for the messages (the screen); the address by default. */
  screen?: string;
}

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; summary: string; known: string | null }[];
}

/**
 * Puts axe-core into the page. `page.addScriptTag({path})` writes an inline <script>, which the
 * portal's CSP (`script-src 'self'`) refuses with a console error (failing the journeys' error
 * checks); the same file evaluated through the DevTools protocol is not subject to the page's CSP.
 */
async function injectAxe(page: Page): Promise<void> {
  if (await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object')) return;
  axeSource ??= readFileSync(AXE_PATH, 'utf8');
  await page.evaluate(axeSource);
  if (!(await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object'))) throw new Error('axe-core did not load into the page');
}

/**
 * Runs axe-core's WCAG 2.1 A/AA rules on what the page shows now and fails on any violation of
 * impact serious or critical that is not a known one, naming each rule, its help text and the
 * first elements it found. Minor and moderate findings, and known ones, are printed only.
 */
export async function expectNoSeriousA11y(page: Page, opts: A11yOptions = {}): Promise<void> {
  // Colours measured mid-animation (a drawer sliding in, a dialog zooming) are blends: wait for
  // the finite animations to end (spinners and other endless ones are left running).
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
  await injectAxe(page);
  const findings = await page.evaluate(
    async ({ exclude, known, tags }) => {
      type AxeNode = { target: unknown[]; failureSummary?: string; element?: Element; any: { data?: { fgColor?: string } | null }[] };
      type AxeResult = { violations: { id: string; impact: string | null; help: string; nodes: AxeNode[] }[] };
      const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResult> } }).axe;
      const context = exclude.length ? { include: [document], exclude: exclude.map((selector) => [selector]) } : document;
      const result = await axe.run(context, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], elementRef: true });
      const knownOf = (rule: string, node: AxeNode) =>
        known.find(
          (k) =>
            k.rule === rule &&
            (!k.selector || !!node.element?.closest(k.selector)) &&
            (!k.fg || node.any.some((check) => check.data?.fgColor?.toLowerCase() === k.fg!.toLowerCase())),
        )?.why ?? null;
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: JSON.stringify(n.target), summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 220), known: knownOf(v.id, n) })),
      }));
    },
    { exclude: opts.exclude ?? [], known: opts.known ?? [], tags: WCAG_TAGS },
  );
  const where = opts.screen ?? page.url();
  const describe = (f: Finding, nodes: Finding['nodes']) =>
    `  ${f.id} (${f.impact}): ${f.help}\n` + nodes.slice(0, 3).map((n) => `    at ${n.target}${n.known ? ` [known: ${n.known}]` : `: ${n.summary}`}`).join('\n') + (nodes.length > 3 ? `\n    … ${nodes.length - 3} more` : '');
  const failing: string[] = [];
  const printed: string[] = [];
  for (const f of findings) {
    const open = f.nodes.filter((n) => !n.known);
    if (FAILING_IMPACTS.includes(f.impact ?? '') && open.length) failing.push(describe(f, open));
    else printed.push(describe(f, f.nodes));
  }
  if (printed.length) console.warn(`[axe] ${where}: known or minor findings\n${printed.join('\n')}`);
  if (failing.length) throw new Error(`[axe] ${where}: ${failing.length} serious/critical violation(s)\n${failing.join('\n')}`);
}
