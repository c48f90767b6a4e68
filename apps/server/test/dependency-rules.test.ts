import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run lint:deps` passes on the project; this proves its rules can fail: a throwaway tree
 * with one breach of each layering rule of CONTRIBUTING.md, cruised with the project's own
 * config, must be reported under that rule's name (and the clean files under none).
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

const FILES: Record<string, string> = {
  'packages/shared/src/index.ts': "export { x } from '../../../apps/web/src/lib/x';\n",
  'apps/web/src/lib/x.ts': 'export const x = 1;\n',
  'apps/web/src/lib/uses-area.ts': "import { page } from '../areas/site/page';\nexport const y = page;\n",
  'apps/web/src/areas/site/page.ts': 'export const page = 1;\n',
  'apps/web/src/areas/admin/page.ts': "import { page } from '../site/page';\nexport const admin = page;\n",
  'apps/web/src/uses-server.ts': "import { a } from '../../server/src/modules/a/a.service';\nexport const w = a;\n",
  'apps/server/src/modules/a/a.service.ts':
    "import Fastify from 'fastify';\nimport { route } from './a.routes';\nexport const a = () => [Fastify, route];\n",
  'apps/server/src/modules/a/a.routes.ts':
    "import { rows } from './a.repository';\nimport { table } from '../../db/schema';\nexport const route = () => [rows, table];\n",
  'apps/server/src/modules/a/a.repository.ts': "import { a } from './a.service';\nexport const rows = () => a;\n",
  'apps/server/src/modules/b/b.routes.ts': "import type { Db } from '../../db/client';\nexport const ok = (db: Db) => db;\n",
  'apps/server/src/db/schema.ts': 'export const table = 1;\n',
  'apps/server/src/db/client.ts': 'export type Db = { q: 1 };\n',
  // The server's floors: lib/db reaching up (a type too), a module naming app.ts (a type-only circle).
  'apps/server/src/lib/uses-module.ts': "import type { Thing } from '../modules/c/c.module';\nexport type T = Thing;\n",
  'apps/server/src/db/uses-app.ts': "import { buildApp } from '../app';\nexport const built = buildApp;\n",
  'apps/server/src/config/uses-cli.ts': "import { run } from '../cli/run-cli';\nexport const r = run;\n",
  'apps/server/src/cli/run-cli.ts': "import { table } from '../db/schema';\nexport const run = () => table;\n",
  'apps/server/src/modules/c/c.module.ts':
    "import type { AppDeps } from '../../app';\nexport type Thing = AppDeps;\nexport const registerC = (deps: AppDeps) => deps;\n",
  'apps/server/src/app.ts': "import { registerC } from './modules/c/c.module';\nexport interface AppDeps { x: 1 }\nexport const buildApp = () => registerC;\n",
  'apps/server/src/app-deps.ts': "import type { Db } from './db/client';\nexport interface Deps { db: Db }\n",
  'apps/server/src/modules/d/d.module.ts': "import type { Deps } from '../../app-deps';\nexport const registerD = (deps: Deps) => deps;\n",
  'apps/server/src/lib/whole-app.test.ts': "import { buildApp } from '../app';\nexport const t = buildApp;\n",
  // Table ownership: e owns db/schema/e.ts; f's table is read through f's read model, not imported.
  'apps/server/src/db/schema/e.ts': 'export const eRows = 1;\n',
  'apps/server/src/db/schema/f.ts': 'export const fRows = 1;\n',
  'apps/server/src/db/schema/lib.ts': 'export const jobRows = 1;\n',
  'apps/server/src/modules/e/e.repository.ts': "import { eRows } from '../../db/schema/e';\nimport { fView } from '../f/f.read-model';\nexport const own = [eRows, fView];\n",
  'apps/server/src/modules/f/f.read-model.ts': "import { fRows } from '../../db/schema/f';\nexport const fView = fRows;\n",
  'apps/server/src/modules/e/reads-f.repository.ts': "import { fRows } from '../../db/schema/f';\nexport const foreign = fRows;\n",
  'apps/server/src/modules/e/type-of-f.service.ts': "import type { fRows } from '../../db/schema/f';\nexport type F = typeof fRows;\n",
  'apps/server/src/modules/e/whole-schema.repository.ts': "import { table } from '../../db/schema';\nexport const all = table;\n",
  'apps/server/src/modules/e/seeds-f.test.ts': "import { fRows } from '../../db/schema/f';\nexport const seeded = fRows;\n",
  'apps/server/src/lib/reads-e.ts': "import { eRows } from '../db/schema/e';\nimport { jobRows } from '../db/schema/lib';\nexport const l = [eRows, jobRows];\n",
};

let dir: string;
let violations: { rule: string; from: string; to: string }[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dep-rules-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  copyFileSync(join(ROOT, 'tsconfig.base.json'), join(dir, 'tsconfig.base.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const bin = join(ROOT, 'node_modules/.bin/depcruise');
  const args = ['apps/server/src', 'apps/web/src', 'packages/shared/src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'];
  // Exit code = number of errors: non-zero is the expected outcome here.
  const out = await run(bin, args, { cwd: dir, maxBuffer: 32 * 1024 * 1024 }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  const result = JSON.parse(out.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  violations = result.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A cycle is reported once, from whichever of its files the cruise meets first: match the folder.
const found = (rule: string, from: string) => violations.some((v) => v.rule === rule && (v.from === from || (from.endsWith('/') && v.from.startsWith(from))));

describe('dependency rules (.dependency-cruiser.cjs) catch each breach', () => {
  it.each([
    ['shared-imports-no-app', 'packages/shared/src/index.ts'],
    ['apps-do-not-import-each-other', 'apps/web/src/uses-server.ts'],
    ['web-areas-are-independent', 'apps/web/src/areas/admin/page.ts'],
    ['components-and-lib-know-no-area', 'apps/web/src/lib/uses-area.ts'],
    ['services-know-no-fastify', 'apps/server/src/modules/a/a.service.ts'],
    ['services-import-no-routes', 'apps/server/src/modules/a/a.service.ts'],
    ['repositories-import-no-services-or-routes', 'apps/server/src/modules/a/a.repository.ts'],
    ['routes-reach-data-through-services', 'apps/server/src/modules/a/a.routes.ts'],
    ['no-circular', 'apps/server/src/modules/a/'],
    ['server-bottom-imports-nothing-above', 'apps/server/src/lib/uses-module.ts'],
    ['server-bottom-imports-nothing-above', 'apps/server/src/db/uses-app.ts'],
    ['server-bottom-imports-nothing-above', 'apps/server/src/config/uses-cli.ts'],
    ['modules-import-no-app', 'apps/server/src/modules/c/c.module.ts'],
    ['no-circular-through-the-app', 'apps/server/src/'],
    ['modules-own-their-tables', 'apps/server/src/modules/e/reads-f.repository.ts'],
    ['modules-own-their-tables', 'apps/server/src/modules/e/type-of-f.service.ts'],
    ['modules-own-their-tables', 'apps/server/src/modules/e/whole-schema.repository.ts'],
    ['lib-owns-only-its-tables', 'apps/server/src/lib/reads-e.ts'],
  ])('%s: %s', (rule, from) => {
    expect(found(rule, from), JSON.stringify(violations, null, 1)).toBe(true);
  });

  it('lets a route name the Db type, and flags nothing in the clean files', () => {
    const flagged = new Set(violations.map((v) => v.from));
    for (const clean of ['apps/server/src/modules/b/b.routes.ts', 'apps/web/src/areas/site/page.ts', 'apps/web/src/lib/x.ts']) expect(flagged.has(clean), clean).toBe(false);
  });

  it("lets a module import its own tables and another's read model, and a test seed any table", () => {
    const owned = violations.filter((v) => v.rule === 'modules-own-their-tables' || v.rule === 'lib-owns-only-its-tables');
    expect(owned.filter((v) => v.from === 'apps/server/src/modules/e/e.repository.ts')).toEqual([]);
    expect(owned.filter((v) => v.from === 'apps/server/src/modules/f/f.read-model.ts')).toEqual([]);
    expect(owned.filter((v) => v.from === 'apps/server/src/modules/e/seeds-f.test.ts')).toEqual([]);
    // lib's own table file passes; the module's table beside it is the one reported.
    expect(owned.filter((v) => v.from === 'apps/server/src/lib/reads-e.ts').map((v) => v.to)).toEqual(['apps/server/src/db/schema/e.ts']);
  });

  it('lets a module take its dependencies from app-deps.ts and a test build the app', () => {
    const flagged = new Set(violations.map((v) => v.from));
    for (const clean of ['apps/server/src/modules/d/d.module.ts', 'apps/server/src/app-deps.ts', 'apps/server/src/lib/whole-app.test.ts']) {
      expect(flagged.has(clean), clean).toBe(false);
    }
  });

  it('no-circular alone lets the type-only circle through app.ts pass: the rule above is what catches it', () => {
    const typeCircle = (v: { rule: string; from: string }) => v.from === 'apps/server/src/app.ts' || v.from === 'apps/server/src/modules/c/c.module.ts';
    expect(violations.filter((v) => v.rule === 'no-circular').some(typeCircle)).toBe(false);
    expect(violations.filter((v) => v.rule === 'no-circular-through-the-app').some(typeCircle)).toBe(true);
  });
});
