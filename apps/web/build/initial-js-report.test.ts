import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { HOME_JS_BUDGET_BYTES, homeJs, initialJsReport, isForbiddenOnHome } from './initial-js-report';

const SRC = '/repo/apps/web/src';

interface FakeChunk {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  moduleIds: string[];
}

function chunk(fileName: string, opts: Partial<Omit<FakeChunk, 'type' | 'fileName'>> = {}): FakeChunk {
  return {
    type: 'chunk',
    fileName,
    code: opts.code ?? `export const name = ${JSON.stringify(fileName)};`,
    isEntry: opts.isEntry ?? false,
    facadeModuleId: opts.facadeModuleId ?? null,
    imports: opts.imports ?? [],
    moduleIds: opts.moduleIds ?? [],
  };
}

function bundleOf(...items: Array<FakeChunk | { type: 'asset'; fileName: string }>) {
  return Object.fromEntries(items.map((item) => [item.fileName, item]));
}

const gz = (code: string) => gzipSync(code, { level: 9 }).length;

/** Code that hardly compresses (a fixed pseudo-random sequence), so it outweighs the small chunks. */
function noise(length: number): string {
  let seed = 42;
  let out = '';
  while (out.length < length) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    out += String.fromCharCode(33 + (seed % 90));
  }
  return out;
}
const VENDOR_CODE = noise(5000);

describe('homeJs', () => {
  it('counts the entry, the gateway layout and the home page with their static imports, nothing else', () => {
    const bundle = bundleOf(
      chunk('index.js', {
        isEntry: true,
        facadeModuleId: '/repo/apps/web/index.html',
        imports: ['vendor.js'],
        moduleIds: [`${SRC}/main.tsx`, `${SRC}/areas/site/routes.ts`, `${SRC}/areas/participant/routes.ts`],
      }),
      chunk('vendor.js', { code: VENDOR_CODE, moduleIds: ['/repo/node_modules/react/index.js'] }),
      chunk('GatewayLayout.js', { facadeModuleId: `${SRC}/app/layouts/GatewayLayout.tsx`, imports: ['vendor.js', 'shared.js'] }),
      chunk('HomePage.js', { facadeModuleId: `${SRC}/areas/site/pages/HomePage.tsx`, imports: ['shared.js'] }),
      chunk('shared.js', { imports: ['index.js'] }),
      // Lazy chunks: only reachable through dynamic imports, so not part of the first load.
      chunk('AdminLayout.js', { facadeModuleId: `${SRC}/areas/admin/AdminLayout.tsx`, imports: ['kit.js'] }),
      chunk('kit.js', { moduleIds: [`${SRC}/components/admin-kit/DataTable.tsx`] }),
      chunk('AuthModal.js', { facadeModuleId: `${SRC}/components/AuthModal.tsx`, imports: ['vendor.js'] }),
      { type: 'asset', fileName: 'index.css' },
    );
    const report = homeJs(bundle);
    const names = report.files.map((f) => f.fileName);
    expect(names.sort()).toEqual(['GatewayLayout.js', 'HomePage.js', 'index.js', 'shared.js', 'vendor.js']);
    // Largest first, each measured as gzip level 9.
    expect(report.files[0]!.fileName).toBe('vendor.js');
    expect(report.files[0]!.bytes).toBe(5000);
    expect(report.files[0]!.gzip).toBe(gz(VENDOR_CODE));
    expect(report.totalGzip).toBe(report.files.reduce((sum, f) => sum + f.gzip, 0));
    // The site's and participant's route tables sit in the entry.
    expect(report.forbidden).toEqual([]);
  });

  it('reports admin, expert and admin-kit modules reachable from the home page', () => {
    const bundle = bundleOf(
      chunk('index.js', {
        isEntry: true,
        facadeModuleId: '/repo/apps/web/index.html',
        imports: ['merged.js'],
        moduleIds: [`${SRC}/areas/admin/routes.ts`],
      }),
      chunk('merged.js', {
        moduleIds: [
          `${SRC}/areas/admin/admin-api.ts`,
          `${SRC}/areas/expert/pages/ExpertHomePage.tsx`,
          `${SRC}/components/admin-kit/kit.css`,
          `${SRC}/components/Breadcrumb.tsx`,
        ],
      }),
    );
    expect(homeJs(bundle).forbidden).toEqual([
      `${SRC}/areas/admin/routes.ts`,
      `${SRC}/areas/admin/admin-api.ts`,
      `${SRC}/areas/expert/pages/ExpertHomePage.tsx`,
      `${SRC}/components/admin-kit/kit.css`,
    ]);
  });

  it('ignores other HTML entries (the PDF viewer page) when the portal entry is present', () => {
    const bundle = bundleOf(
      chunk('index.js', { isEntry: true, facadeModuleId: '/repo/apps/web/index.html' }),
      chunk('viewer.js', {
        isEntry: true,
        facadeModuleId: '/repo/apps/web/pdf/web/viewer.html',
        imports: ['pdfjs.js'],
      }),
      chunk('pdfjs.js', { code: 'y'.repeat(1000) }),
    );
    expect(homeJs(bundle).files.map((f) => f.fileName)).toEqual(['index.js']);
  });

  it('counts every entry of a bundle without an HTML entry', () => {
    const bundle = bundleOf(
      chunk('a.js', { isEntry: true, facadeModuleId: `${SRC}/main.tsx` }),
      chunk('b.js', { isEntry: true, facadeModuleId: `${SRC}/other.ts` }),
    );
    expect(homeJs(bundle).files.map((f) => f.fileName).sort()).toEqual(['a.js', 'b.js']);
  });

  it('survives import cycles and imports of unknown files', () => {
    const bundle = bundleOf(
      chunk('index.js', { isEntry: true, facadeModuleId: '/repo/apps/web/index.html', imports: ['a.js'] }),
      chunk('a.js', { imports: ['b.js'] }),
      chunk('b.js', { imports: ['a.js', 'index.js', 'missing.js'] }),
    );
    expect(homeJs(bundle).files.map((f) => f.fileName).sort()).toEqual(['a.js', 'b.js', 'index.js']);
  });
});

describe('isForbiddenOnHome', () => {
  it.each([
    // The console route tables too: they are added when a console address is first visited.
    [`${SRC}/areas/admin/routes.ts`, true],
    [`${SRC}/areas/expert/routes.ts`, true],
    [`${SRC}/areas/admin/AdminLayout.tsx`, true],
    [`${SRC}/areas/admin/pages/routes.ts`, true],
    [`${SRC}/areas/expert/ExpertLayout.tsx`, true],
    [`${SRC}/components/admin-kit/console-handle.ts`, true],
    [`${SRC}/components/admin-kit/kit.css?used`, true],
    ['C:\\repo\\apps\\web\\src\\areas\\admin\\admin-api.ts', true],
    ['C:\\repo\\apps\\web\\src\\areas\\admin\\routes.ts', true],
    [`${SRC}/areas/site/routes.ts`, false],
    [`${SRC}/lib/route-guards.ts`, false],
    ['/repo/node_modules/antd/es/table/index.js', false],
  ])('%s -> %s', (id, forbidden) => {
    expect(isForbiddenOnHome(id)).toBe(forbidden);
  });
});

describe('initialJsReport', () => {
  function run(plugin: ReturnType<typeof initialJsReport>, bundle: Record<string, unknown>) {
    const ctx = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const hook = plugin.generateBundle as unknown as (this: typeof ctx, options: unknown, bundle: unknown) => void;
    hook.call(ctx, {}, bundle);
    return ctx;
  }

  const heavy = bundleOf(
    chunk('index.js', {
      isEntry: true,
      facadeModuleId: '/repo/apps/web/index.html',
      code: noise(4000),
      moduleIds: [`${SRC}/areas/admin/AdminLayout.tsx`],
    }),
  );

  it('fails on both findings by default', () => {
    const ctx = run(initialJsReport(1000), heavy);
    expect(ctx.info).toHaveBeenCalledWith(expect.stringContaining('home page JavaScript:'));
    expect(ctx.error).toHaveBeenCalledTimes(2);
    expect(ctx.warn).not.toHaveBeenCalled();
  });

  it('only warns when not enforced, and can enforce one finding alone', () => {
    const lenient = run(initialJsReport(1000, false), heavy);
    expect(lenient.error).not.toHaveBeenCalled();
    expect(lenient.warn).toHaveBeenCalledTimes(2);

    const forbiddenOnly = run(initialJsReport(1000, { budget: false }), heavy);
    expect(forbiddenOnly.error).toHaveBeenCalledWith(expect.stringContaining('admin/expert code'));
    expect(forbiddenOnly.warn).toHaveBeenCalledWith(expect.stringContaining('over the'));
  });

  it('holds the home page to 200 KB gzip by default', () => {
    expect(HOME_JS_BUDGET_BYTES).toBe(200 * 1024);
    // An entry of 201 KB gzip (incompressible code) fails the default budget; 199 KB passes.
    // Hash output: `noise` repeats itself over this length and would compress away.
    let source = '';
    for (let i = 0; source.length < 400 * 1024; i++) source += createHash('sha256').update(String(i)).digest('base64');
    const entryOf = (kb: number) => {
      // The shortest prefix of the noise that weighs at least `kb` KB gzip (to within 1 KB).
      let length = kb * 1024;
      while (gz(source.slice(0, length)) < kb * 1024) length += 1024;
      const code = source.slice(0, length);
      expect(gz(code) - kb * 1024).toBeLessThan(1024);
      return bundleOf(chunk('index.js', { isEntry: true, facadeModuleId: '/repo/apps/web/index.html', code }));
    };
    expect(run(initialJsReport(), entryOf(201)).error).toHaveBeenCalledWith(expect.stringContaining('over the 200.0 KB budget'));
    expect(run(initialJsReport(), entryOf(199)).error).not.toHaveBeenCalled();
  });

  it('stays quiet within the budget', () => {
    const ctx = run(initialJsReport(), bundleOf(chunk('index.js', { isEntry: true, facadeModuleId: '/repo/apps/web/index.html' })));
    expect(ctx.error).not.toHaveBeenCalled();
    expect(ctx.warn).not.toHaveBeenCalled();
  });
});
