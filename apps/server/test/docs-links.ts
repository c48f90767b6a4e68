import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * What a clone cannot follow: comments (and test names) must point at pages of docs/ in this
 * repository, never at issue numbers or at files that live outside it. The scanner is pure over a
 * file's text (`scanText`), so its rules are tested on samples; `scanRepository` runs it over the
 * source tree. Used by docs-links.test.ts; the rule is in CONTRIBUTING.md ("Comments").
 */

export type FindingKind =
  /** An issue number, in any case ("ISSUE 14 (…)"): the tracker is not part of the repository. */
  | 'ISSUE_NUMBER'
  /** The product and portal specs, DEVELOPERS.md, "spec section 4": files outside the repository. */
  | 'OUTSIDE_FILE'
  /** docs/….md or docs/….json that does not exist. */
  | 'MISSING_DOC'
  /** docs/x.md, "Section": no heading of docs/x.md contains that text, and no label starts with it. */
  | 'MISSING_SECTION';

export interface Finding {
  file: string;
  line: number;
  kind: FindingKind;
  /** What was found (the citation, or the quoted section). */
  text: string;
}

export interface DocsIndex {
  /** Whether `docs/…` (a path relative to the repository root) exists. */
  exists(path: string): boolean;
  /** The places of a markdown page a comment may cite, or null when it is not one. */
  sections(path: string): DocSections | null;
}

export interface DocSections {
  /** Text after the #s. */
  headings: readonly string[];
  /** Bold spans (`**Experts**`) and the label before a line's first colon (`- One clock for jobs: …`, `| Input hygiene: …`). */
  labels: readonly string[];
}

const ISSUE = /\bissues? #?\d+/gi;
const OUTSIDE = /\bproduct\.md\b|\bportal[-]spec\b|\bDEVELOPERS\.md\b|\bspec sections? \d+/gi;
const DOC_PATH = /\bdocs\/[\w./-]*[\w-]\.(?:md|json)\b/g;
/**
 * After a cited page: `, "Section"` / ` ("Section"` / `: 'Section'` / ` "Section"`, straight or
 * curly quotes. A quote right after the path (`read('docs/deploy.md')`) closes a string instead.
 */
const SECTION_AFTER = /^(?:\s*[,:]\s*\(?\s*|\s*\(\s*|\s+)(["'“‘])/;
const CLOSING: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’' };
/** A comment line's lead-in (` * `, `// `), dropped when a quoted section runs onto the next line. */
const COMMENT_LEAD = /^\s*(?:\*(?!\/)|\/\/)\s?/;

/** Compared loosely: case, backticks, emphasis and runs of spaces do not matter. */
export const normaliseHeading = (text: string): string =>
  text
    .replace(/[`*_]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** Every finding in one file's text. `file` is the path reported (relative to the repository root). */
export function scanText(file: string, text: string, docs: DocsIndex): Finding[] {
  const findings: Finding[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const at = { file, line: index + 1 };
    for (const m of line.matchAll(ISSUE)) findings.push({ ...at, kind: 'ISSUE_NUMBER', text: m[0] });
    for (const m of line.matchAll(OUTSIDE)) findings.push({ ...at, kind: 'OUTSIDE_FILE', text: m[0] });
    for (const m of line.matchAll(DOC_PATH)) {
      const path = m[0];
      if (!docs.exists(path)) {
        findings.push({ ...at, kind: 'MISSING_DOC', text: path });
        continue;
      }
      const section = quotedSectionAfter(line.slice(m.index + path.length), lines[index + 1]);
      if (section === null) continue;
      const sections = docs.sections(path);
      if (!sections) continue;
      const wanted = normaliseHeading(section);
      const found =
        sections.headings.some((h) => normaliseHeading(h).includes(wanted)) || sections.labels.some((l) => normaliseHeading(l).startsWith(wanted));
      if (!found) {
        findings.push({ ...at, kind: 'MISSING_SECTION', text: `${path}, "${section}"` });
      }
    }
  });
  return findings;
}

/** The quoted text right after a cited page, if any; a quote left open may close on the next comment line. */
function quotedSectionAfter(rest: string, nextLine: string | undefined): string | null {
  const open = SECTION_AFTER.exec(rest);
  if (!open) return null;
  const close = CLOSING[open[1]!]!;
  const body = rest.slice(open[0].length);
  const end = body.indexOf(close);
  if (end >= 0) return body.slice(0, end).trim() || null;
  if (nextLine === undefined || !COMMENT_LEAD.test(nextLine)) return null;
  const more = nextLine.replace(COMMENT_LEAD, '');
  const endNext = more.indexOf(close);
  return endNext >= 0 ? `${body} ${more.slice(0, endNext)}`.trim() || null : null;
}

/** The docs/ folder of a repository, read from disk (cached per page). */
export function docsIndexOf(root: string): DocsIndex {
  const cache = new Map<string, DocSections>();
  return {
    exists: (path) => existsSync(join(root, path)),
    sections(path) {
      if (!path.endsWith('.md')) return null;
      if (!cache.has(path)) cache.set(path, sectionsOf(readFileSync(join(root, path), 'utf8')));
      return cache.get(path)!;
    },
  };
}

/** Headings and labels of a markdown text (see DocSections). */
export function sectionsOf(markdown: string): DocSections {
  const headings = [...markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((m) => m[1]!);
  const bold = [...markdown.matchAll(/\*\*([^*\n]+)\*\*/g)].map((m) => m[1]!);
  const lead = [...markdown.matchAll(/^(?:\s*[-*|]\s+)?([^:\n|#]{1,80}):/gm)].map((m) => m[1]!);
  return { headings, labels: [...bold, ...lead] };
}

/** Where comments live: the workspaces, the benches, the tooling and deployment files. */
export const SCANNED_DIRS = ['apps', 'packages', 'e2e', 'bench', 'scripts', 'deploy', '.ci'] as const;
export const SCANNED_ROOT_FILES = ['.dependency-cruiser.cjs', 'eslint.config.js', 'Dockerfile', '.env.example'] as const;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'artifacts', 'coverage', '.cache', 'migrations']);
const SCANNED_FILE = /\.(?:ts|tsx|js|mjs|cjs|css|html|sh|ya?ml|conf|service)$|^(?:Dockerfile|run)$/;

/** Relative paths (with /) of every scanned file under `root`, except `skip`. */
export function sourceFiles(root: string, skip: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        if (!SKIPPED_DIRS.has(name)) walk(full);
      } else if (SCANNED_FILE.test(name)) {
        const path = relative(root, full).split(sep).join('/');
        if (!skip.has(path)) out.push(path);
      }
    }
  };
  for (const dir of SCANNED_DIRS) if (existsSync(join(root, dir))) walk(join(root, dir));
  for (const file of SCANNED_ROOT_FILES) if (existsSync(join(root, file)) && !skip.has(file)) out.push(file);
  return out.sort();
}

/** Every finding in the repository's source files. */
export function scanRepository(root: string, skip: ReadonlySet<string> = new Set()): Finding[] {
  const docs = docsIndexOf(root);
  return sourceFiles(root, skip).flatMap((file) => scanText(file, readFileSync(join(root, file), 'utf8'), docs));
}
