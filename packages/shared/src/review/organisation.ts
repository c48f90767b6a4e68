/**
 * Conflicts of interest (product.md 6): organisations are the same when their unified social
 * credit codes are equal, or, when either side has no code, when their normalised names are.
 * IMPLEMENTED BY: the shared-algorithms helper (issue 11). Pure; no I/O.
 */

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
  /** Human-readable: 同一统一社会信用代码 91110000… / 单位名称相同（规范化后：…） / 专家申报回避：… */
  text: string;
}

/**
 * Folded name: NFKC (full-width to half-width), lower case, spaces and brackets of every kind
 * removed, and common legal suffixes (有限责任公司, 股份有限公司, 有限公司, 公司, 集团, …) dropped
 * from the end. '' for an empty name (never matches anything).
 */
export function normaliseOrgName(name: string | null | undefined): string {
  void name;
  throw new Error('normaliseOrgName: not implemented yet');
}

/** Upper-cased, trimmed credit code, or '' when absent. */
export function normaliseCreditCode(code: string | null | undefined): string {
  return (code ?? '').trim().toUpperCase();
}

/** The first cause found (credit code before name, own before declared), or null when none. */
export function conflictBetween(expert: ExpertOrgs, team: OrgRef): ConflictCause | null {
  void expert;
  void team;
  throw new Error('conflictBetween: not implemented yet');
}
