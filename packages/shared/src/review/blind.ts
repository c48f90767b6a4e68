/**
 * Blind review of files (docs/security.md, "Blind review"): the neutral names
 * experts see, the watermark stamped on what they download, and the formal check's warning when
 * an application names its own team. Pure; no I/O.
 */
import { normaliseOrgName } from './organisation.js';

/** The material kinds of a project, as named in an expert's file names. */
export type MaterialKind = 'application' | 'presentation' | 'video' | 'other';

const KIND_LABELS: Record<MaterialKind, string> = {
  application: '申报书',
  presentation: '演示文稿',
  video: '演示视频',
  other: '附件',
};

/**
 * The project's neutral code: 'P-' and the first 8 hex digits of its id, upper case. Stable,
 * needs no numbering, and says nothing about the team or when it signed up.
 */
export function projectCodeOf(prelimId: string): string {
  return `P-${prelimId.replace(/-/g, '').slice(0, 8).toUpperCase()}`;
}

/**
 * The name an expert sees for a material under blind review: project code, kind (附件 numbered
 * from 1 in the form's order) and the stored extension, e.g. `P-3F2A9C1B-申报书.pdf`.
 */
export function neutralFileName(prelimId: string, kind: MaterialKind, extension: string, otherIndex = 0): string {
  const label = kind === 'other' ? `${KIND_LABELS.other}${otherIndex + 1}` : KIND_LABELS[kind];
  return `${projectCodeOf(prelimId)}-${label}${extension ? `.${extension}` : ''}`;
}

/**
 * Hides the middle of an account so a mark identifies its holder without the whole login name
 * (the same rule as the consoles' screen watermark): 11+ characters keep the first 3 and last 4,
 * shorter ones the first and last character, one or two characters only the first.
 */
export function maskAccountName(account: string): string {
  const chars = Array.from(account.trim());
  const n = chars.length;
  if (n === 0) return '';
  if (n <= 2) return `${chars[0]}${'*'.repeat(n - 1)}`;
  const [head, tail] = n >= 11 ? [3, 4] : [1, 1];
  return chars.slice(0, head).join('') + '*'.repeat(n - head - tail) + chars.slice(n - tail).join('');
}

/**
 * Hides a person's name the way Chinese forms do: the first character stays, then 张* for two
 * characters and 张*明 for three or more (the last one stays too). Latin names keep the first
 * and last letter of the whole. Used in the stamp on PDFs an expert downloads.
 */
export function maskPersonName(name: string): string {
  const chars = Array.from(name.trim());
  const n = chars.length;
  if (n <= 1) return chars.join('');
  if (n === 2) return `${chars[0]}*`;
  return `${chars[0]}${'*'.repeat(n - 2)}${chars[n - 1]}`;
}

/** Where the formal check found the team named: the application's text or one of its metadata fields. */
export interface BlindFinding {
  /** 'text' or the metadata field (Author, Creator, Title, Company, ...). */
  where: string;
  /** Which of the team's names was found. */
  name: 'orgName' | 'teamName';
  /** The name as the team wrote it. */
  value: string;
}

/**
 * Text folded as organisation names are (NFKC, lower case, no spaces or brackets), so
 * '北京 某某科技（集团）' in a PDF matches the organisation '北京某某科技集团有限公司'.
 */
function foldText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{Ps}\p{Pe}<>]/gu, '')
    .replace(/[\s\u200b-\u200d\u2060\ufeff]+/gu, '');
}

/** Shorter folded names match by chance ('医院'), so they are not looked for. */
const MIN_FOLDED_CHARS = 3;

/**
 * The formal check's blind-review warning: each place (the text, each metadata field) where the
 * team's organisation or team name appears after folding. The organisation is looked for by its
 * folded core (legal suffixes dropped, organisation.ts), so '某某科技' in the text is found for
 * '某某科技有限公司'. A warning for the operator, never a refusal.
 */
export function findTeamNames(
  sources: { text: string; metadata: Record<string, string> },
  team: { orgName: string | null | undefined; teamName: string | null | undefined },
): BlindFinding[] {
  const names = (
    [
      ['orgName', team.orgName],
      ['teamName', team.teamName],
    ] as const
  )
    .map(([name, value]) => ({ name, value: (value ?? '').trim(), folded: foldText(normaliseOrgName(value)) }))
    .filter((n) => Array.from(n.folded).length >= MIN_FOLDED_CHARS);
  const findings: BlindFinding[] = [];
  const places: [string, string][] = [['text', sources.text], ...Object.entries(sources.metadata)];
  for (const [where, content] of places) {
    const folded = foldText(content);
    if (!folded) continue;
    for (const n of names) if (folded.includes(n.folded)) findings.push({ where, name: n.name, value: n.value });
  }
  return findings;
}
