import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Budget of the home page's JavaScript, gzip (docs/decisions.md, "Home page JavaScript budget"). */
export const HOME_JS_BUDGET_BYTES = 200 * 1024;

/** Modules that render `/`: besides the entry, the lazy gateway layout and home page. */
const HOME_FACADES = [/\/app\/layouts\/GatewayLayout\.tsx$/, /\/areas\/site\/pages\/HomePage\.tsx$/];
/**
 * The portal's entry (index.html). Other entries (the PDF viewer page) are separate pages and
 * do not count; a bundle without an HTML entry (tests, library builds) counts every entry.
 */
const PORTAL_ENTRY = /(^|\/)index\.html$/;
/**
 * Code that must never reach a visitor of the home page: the admin and expert areas (their route
 * tables too: the router adds them when a console address is first visited, src/app/create-router.ts)
 * and the console kit.
 */
const FORBIDDEN = /\/areas\/(admin|expert)\/|\/components\/admin-kit\//;

/** Whether a module id (absolute path, maybe with a ?query) is admin/expert code barred from `/`. */
export function isForbiddenOnHome(id: string): boolean {
  const path = id.split('?')[0]!.replace(/\\/g, '/');
  return FORBIDDEN.test(path);
}

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  moduleIds: string[];
}

export interface HomeJsReport {
  files: Array<{ fileName: string; bytes: number; gzip: number }>;
  totalGzip: number;
  forbidden: string[];
}

/** The chunks the browser loads for `/` (static imports of the entry and of the home facades). */
export function homeJs(bundle: Record<string, { type: string }>): HomeJsReport {
  const chunks = Object.values(bundle).filter((c): c is ChunkLike => c.type === 'chunk') as ChunkLike[];
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const entries = chunks.filter((c) => c.isEntry);
  const portal = entries.filter((c) => PORTAL_ENTRY.test(c.facadeModuleId ?? ''));
  const roots = [
    ...(portal.length ? portal : entries),
    ...chunks.filter((c) => HOME_FACADES.some((re) => re.test(c.facadeModuleId ?? ''))),
  ];
  const seen = new Set<string>();
  const stack = roots.map((c) => c.fileName);
  while (stack.length) {
    const name = stack.pop()!;
    // Imports outside the bundle (externals, assets of another pass) are not ours to weigh.
    if (seen.has(name) || !byName.has(name)) continue;
    seen.add(name);
    for (const dep of byName.get(name)?.imports ?? []) stack.push(dep);
  }
  const files = [...seen]
    .map((name) => byName.get(name)!)
    .map((c) => ({ fileName: c.fileName, bytes: Buffer.byteLength(c.code), gzip: gzipSync(c.code, { level: 9 }).length }))
    .sort((a, b) => b.gzip - a.gzip);
  const forbidden = [...seen].flatMap((name) => byName.get(name)!.moduleIds.filter(isForbiddenOnHome));
  return { files, totalGzip: files.reduce((sum, f) => sum + f.gzip, 0), forbidden };
}

/** Which findings fail the build (the others are printed as warnings). */
export interface Enforcement {
  /** Over the budget. */
  budget: boolean;
  /** Admin, expert or console-kit code reachable from the home page. */
  forbidden: boolean;
}

/**
 * Prints the home page's JavaScript (gzip) after every production build and fails the build
 * when it outgrows the budget or pulls in admin or expert code: a regression shows up where it
 * is made, not weeks later in a slow first visit. `enforce` takes a boolean for both findings
 * or decides per finding.
 */
export function initialJsReport(budget = HOME_JS_BUDGET_BYTES, enforce: boolean | Partial<Enforcement> = true): Plugin {
  const strict: Enforcement =
    typeof enforce === 'boolean' ? { budget: enforce, forbidden: enforce } : { budget: true, forbidden: true, ...enforce };
  return {
    name: 'contest:initial-js-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const report = homeJs(bundle as unknown as Record<string, { type: string }>);
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      this.info(
        `home page JavaScript: ${kb(report.totalGzip)} gzip in ${report.files.length} files (budget ${kb(budget)}); ` +
          `largest: ${report.files.slice(0, 3).map((f) => `${f.fileName} ${kb(f.gzip)}`).join(', ')}`,
      );
      const fail = (finding: keyof Enforcement, message: string) =>
        strict[finding] ? this.error(message) : this.warn(message);
      if (report.forbidden.length) {
        fail('forbidden', `admin/expert code in the home page's JavaScript: ${report.forbidden.slice(0, 5).join(', ')}`);
      }
      if (report.totalGzip > budget) {
        fail('budget', `home page JavaScript ${kb(report.totalGzip)} gzip is over the ${kb(budget)} budget`);
      }
    },
  };
}
