/**
 * Conflicts of interest (docs/rules/review.md, "Conflicts of interest"): organisations are the same when their unified social
 * credit codes are equal, or, when either side has no code, when their normalised names are.
 * Pure; no I/O.
 */

import { maskCreditCode } from '../pii.js';

/** An organisation as the conflict rules see it. */
export interface OrgRef {
  name: string | null | undefined;
  creditCode?: string | null | undefined;
}

/** Expert side: own organisation (with its code when known) and declared further ones. */
export interface ExpertOrgs {
  own: OrgRef;
  declared: readonly OrgRef[];
}

/** Why a pair is a conflict, for the admin's eyes. `via` = which of the expert's organisations matched. */
export interface ConflictCause {
  kind: 'CREDIT_CODE' | 'NAME';
  via: 'OWN' | 'DECLARED';
  /** The expert's organisation that matched (as written). */
  expertOrg: string;
  /** The team's organisation (as written). */
  teamOrg: string;
  /** Human-readable: 同一统一社会信用代码 9111**********789X / 单位名称相同（规范化后：…） / 专家申报回避：… */
  text: string;
}

/**
 * Folded name: NFKC (full-width to half-width), lower case, spaces and brackets of every kind
 * removed, and common legal suffixes (有限责任公司, 股份有限公司, 有限公司, 公司, 集团, …) dropped
 * from the end. '' for an empty name (never matches anything).
 *
 * Decisions:
 * - Brackets go but their text stays, so '北京某某科技（有限公司）' folds to the same name as
 *   '北京某某科技有限公司' (both '北京某某科技'), and '某某（集团）有限公司' to '某某'.
 * - Suffixes are stripped repeatedly ('某某集团股份有限公司' -> '某某'); 医院, 大学, 研究院 and the
 *   like are part of an organisation's identity and stay. 公司 after 分/子 (分公司, 子公司) stays
 *   too: a branch is named after its parent, and dropping only 公司 would leave a stub ('…分').
 * - Latin suffixes (co.,ltd, ltd, limited, inc, corp, company, llc …) go only as whole words, so
 *   'Global Zinc' keeps its 'zinc'.
 * - Stripping never empties a name: '有限公司' alone stays '有限公司'.
 */
export function normaliseOrgName(name: string | null | undefined): string {
  if (!name) return '';
  // Callers compare the same few thousand names again and again (every expert with every
  // project of a round, on every review call), and folding costs a dozen regular expressions.
  let folded = folds.get(name);
  if (folded === undefined) {
    if (folds.size >= FOLDS_MAX) folds.clear();
    folded = fold(name);
    folds.set(name, folded);
  }
  return folded;
}

const FOLDS_MAX = 50_000;
const folds = new Map<string, string>();

function fold(name: string): string {
  // Brackets become spaces first so they still separate Latin words ('ABC(Inc)' drops 'inc').
  let s = name.normalize('NFKC').toLowerCase().replace(BRACKETS, ' ');
  for (;;) {
    s = s.replace(TRAILING_NOISE, '');
    const stripped = stripOneSuffix(s);
    if (stripped === null || squeeze(stripped) === '') break;
    s = stripped;
  }
  return squeeze(s);
}

/** Opening and closing punctuation of every script (()（）[]【】〔〕〖〗《》「」…) plus <>. */
const BRACKETS = /[\p{Ps}\p{Pe}<>]/gu;
/** White space of every kind, zero-width characters included. */
const SPACES = /[\s\u200b-\u200d\u2060\ufeff]+/gu;
/** Spaces and punctuation left dangling at the end once a suffix goes ('某某 ,' / 'abc co.,'). */
const TRAILING_NOISE = /[\s\u200b-\u200d\u2060\ufeff.,;:·、，。；：'"_-]+$/u;

const squeeze = (s: string) => s.replace(SPACES, '');

/** Longest first, so 有限责任公司 is not read as …责任 + 公司. Spaces inside are tolerated. */
const CJK_SUFFIXES = ['股份有限公司', '有限责任公司', '有限公司', '责任公司', '股份公司', '公司', '集团'];
const cjkSuffix = (word: string) => {
  const chars = [...word].join('\\s*');
  // 公司 of a 分公司/子公司 names a branch, not a legal form.
  return new RegExp(word === '公司' ? `(?<![分子]\\s*)${chars}$` : `${chars}$`, 'u');
};
/** As whole words: the character before must not be a Latin letter or a digit. */
const latinSuffix = (pattern: string) => new RegExp(`(?<![\\p{Script=Latin}\\p{N}])(?:${pattern})$`, 'u');
const SUFFIXES: readonly RegExp[] = [
  ...CJK_SUFFIXES.map(cjkSuffix),
  latinSuffix('co\\s*[.,]*\\s*ltd'),
  ...['ltd', 'limited', 'inc', 'incorporated', 'corp', 'corporation', 'company', 'co', 'llc'].map(latinSuffix),
];

function stripOneSuffix(s: string): string | null {
  for (const re of SUFFIXES) {
    const m = re.exec(s);
    if (m) return s.slice(0, m.index);
  }
  return null;
}

/** Upper-cased, trimmed credit code, or '' when absent. */
export function normaliseCreditCode(code: string | null | undefined): string {
  return (code ?? '').trim().toUpperCase();
}

/**
 * An organisation folded once, for callers that compare one organisation with many (automatic
 * assignment compares every project with every expert).
 */
export interface FoldedOrg {
  /** As written, for the admin's eyes. */
  written: string;
  code: string;
  name: string;
}

export interface FoldedExpertOrgs {
  own: FoldedOrg;
  declared: readonly FoldedOrg[];
}

export function foldOrg(org: OrgRef): FoldedOrg {
  const code = normaliseCreditCode(org.creditCode);
  // A declared organisation may be given by its code alone: show the code then.
  const written = (org.name ?? '').trim() || code;
  return { written, code, name: normaliseOrgName(org.name) };
}

export function foldExpertOrgs(expert: ExpertOrgs): FoldedExpertOrgs {
  return { own: foldOrg(expert.own), declared: expert.declared.map(foldOrg) };
}

/**
 * The first cause found (credit code before name, own before declared), or null when none.
 * Two different codes are two different organisations: their names are then not compared (the
 * rules in full at conflictBetweenFolded).
 */
export function conflictBetween(expert: ExpertOrgs, team: OrgRef): ConflictCause | null {
  return conflictBetweenFolded(foldExpertOrgs(expert), foldOrg(team));
}

/**
 * conflictBetween on folded organisations. The rules:
 * 1. Credit codes first: the expert's own code, then each declared one, equal to the team's.
 * 2. Names only for a pair where either side has no code. Two different codes are two different
 *    organisations even under one name: branches of one group register separately and share a
 *    name, and the code is the registry's own identity, so it wins over our folding of names.
 * 3. Own organisation before declared ones, in the order declared.
 */
export function conflictBetweenFolded(expert: FoldedExpertOrgs, team: FoldedOrg): ConflictCause | null {
  const { own, declared } = expert;
  if (team.code) {
    if (own.code === team.code) return cause('CREDIT_CODE', 'OWN', own, team);
    for (const org of declared) if (org.code === team.code) return cause('CREDIT_CODE', 'DECLARED', org, team);
  }
  if (team.name) {
    const sameName = (org: FoldedOrg) => org.name === team.name && !(org.code && team.code);
    if (sameName(own)) return cause('NAME', 'OWN', own, team);
    for (const org of declared) if (sameName(org)) return cause('NAME', 'DECLARED', org, team);
  }
  return null;
}

function cause(kind: ConflictCause['kind'], via: ConflictCause['via'], org: FoldedOrg, team: FoldedOrg): ConflictCause {
  // The code masked like every credit code the console shows (../pii.ts): the kind already says they match.
  const why = kind === 'CREDIT_CODE' ? `同一统一社会信用代码 ${maskCreditCode(team.code)}` : `单位名称相同（规范化后：${team.name}）`;
  // A declared organisation is the expert's own word, so the text says so before the match.
  const text = via === 'DECLARED' ? `专家申报回避：${org.written}；${why}` : why;
  return { kind, via, expertOrg: org.written, teamOrg: team.written, text };
}
