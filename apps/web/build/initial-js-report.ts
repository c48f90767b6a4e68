import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Budget of the home page's JavaScript, gzip (issue 5). */
export const HOME_JS_BUDGET_BYTES = 250 * 1024;

/** Modules that render `/`: besides the entry, the lazy gateway layout and home page. */
const HOME_FACADES = [/\/app\/layouts\/GatewayLayout\.tsx$/, /\/areas\/site\/pages\/HomePage\.tsx$/];
/** Code that must never reach a visitor of the home page. */
const FORBIDDEN = /\/areas\/(admin|expert)\//;

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
  const roots = chunks.filter((c) => c.isEntry || HOME_FACADES.some((re) => re.test(c.facadeModuleId ?? '')));
  const seen = new Set<string>();
  const stack = roots.map((c) => c.fileName);
  while (stack.length) {
    const name = stack.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const dep of byName.get(name)?.imports ?? []) stack.push(dep);
  }
  const files = [...seen]
    .map((name) => byName.get(name)!)
    .map((c) => ({ fileName: c.fileName, bytes: Buffer.byteLength(c.code), gzip: gzipSync(c.code, { level: 9 }).length }))
    .sort((a, b) => b.gzip - a.gzip);
  const forbidden = [...seen].flatMap((name) => byName.get(name)!.moduleIds.filter((id) => FORBIDDEN.test(id)));
  return { files, totalGzip: files.reduce((sum, f) => sum + f.gzip, 0), forbidden };
}

/**
 * Prints the home page's JavaScript (gzip) after every production build and fails the build
 * when it outgrows the budget or pulls in admin or expert code: a regression shows up where it
 * is made, not weeks later in a slow first visit.
 */
export function initialJsReport(budget = HOME_JS_BUDGET_BYTES, enforce = true): Plugin {
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
      const fail = (message: string) => (enforce ? this.error(message) : this.warn(message));
      if (report.forbidden.length) fail(`admin/expert code in the home page's JavaScript: ${report.forbidden.slice(0, 5).join(', ')}`);
      if (report.totalGzip > budget) fail(`home page JavaScript ${kb(report.totalGzip)} gzip is over the ${kb(budget)} budget`);
    },
  };
}
