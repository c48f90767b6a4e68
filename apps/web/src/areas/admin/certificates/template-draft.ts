/**
 * The template editor's working copy (docs/certificates.md, "Templates"): the body the server takes,
 * plus a local id per field so rows and boxes keep their identity while fields are added, moved
 * and removed. Positions are fractions of the page (the contract's unit); the editor shows and
 * takes them as percentages.
 */
import {
  CERTIFICATE_FIELD_KEYS,
  CERTIFICATE_PAGE_POINTS,
  EXPERT_ONLY_FIELD_KEYS,
  TEAM_ONLY_FIELD_KEYS,
  isExpertCertificateKind,
  type CertificateAlign,
  type CertificateBackground,
  type CertificateFieldKey,
  type CertificateKind,
  type CertificateOrientation,
  type CertificatePageSize,
  type CertificateTemplateBodyInput,
  type CertificateTemplateVersion,
} from '@contest/shared';

export interface FieldDraft {
  uid: string;
  key: CertificateFieldKey;
  x: number;
  y: number;
  width: number;
  fontSize: number;
  align: CertificateAlign;
  bold: boolean;
  color: string;
  text: string;
}

export interface TemplateDraft {
  name: string;
  kind: CertificateKind;
  awardLevel: string;
  pageSize: CertificatePageSize;
  orientation: CertificateOrientation;
  background: CertificateBackground | null;
  fields: FieldDraft[];
}

let uidSeq = 0;
const nextUid = () => `f${++uidSeq}`;

/** Fractions kept to 4 decimals (0.01 % of the page): what a drag or a typed percentage gives. */
export const roundFraction = (v: number) => Math.round(v * 10_000) / 10_000;
/** A fraction shown as a percentage with one decimal. */
export const toPercent = (v: number) => Math.round(v * 1000) / 10;
export const fromPercent = (v: number) => roundFraction(v / 100);
export const clamp = (v: number, min: number, max: number) => Math.min(Math.max(v, min), max);

/** The page's size in points, as printed (landscape swaps portrait's sides). */
export function pagePoints(size: CertificatePageSize, orientation: CertificateOrientation): { width: number; height: number } {
  const p = CERTIFICATE_PAGE_POINTS[size];
  return orientation === 'LANDSCAPE' ? { width: p.height, height: p.width } : p;
}

/** The field keys a kind may place (team kinds: no expert name; letters: no team, project, award...). */
export function keysForKind(kind: CertificateKind): CertificateFieldKey[] {
  const expert = isExpertCertificateKind(kind);
  return CERTIFICATE_FIELD_KEYS.filter((key) =>
    expert ? !(TEAM_ONLY_FIELD_KEYS as readonly string[]).includes(key) : !(EXPERT_ONLY_FIELD_KEYS as readonly string[]).includes(key),
  );
}

/** A new field, placed below the others so it does not cover one; the QR code as a small square at the bottom right. */
export function newField(key: CertificateFieldKey, existing: readonly FieldDraft[]): FieldDraft {
  if (key === 'qr') return { uid: nextUid(), key, x: 0.82, y: 0.74, width: 0.12, fontSize: 16, align: 'left', bold: false, color: '#000000', text: '' };
  const y = roundFraction(Math.min(0.1 + existing.filter((f) => f.key !== 'qr').length * 0.08, 0.9));
  return { uid: nextUid(), key, x: 0.15, y, width: 0.7, fontSize: key === 'team' || key === 'award' ? 24 : 16, align: 'center', bold: key === 'award', color: '#000000', text: '' };
}

export function emptyDraft(kind: CertificateKind = 'AWARD'): TemplateDraft {
  return { name: '', kind, awardLevel: '', pageSize: 'A4', orientation: 'LANDSCAPE', background: null, fields: [] };
}

export function draftOf(version: CertificateTemplateVersion): TemplateDraft {
  return {
    name: version.name,
    kind: version.kind,
    awardLevel: version.awardLevel ?? '',
    pageSize: version.pageSize,
    orientation: version.orientation,
    background: version.background,
    fields: version.fields.map((f) => ({ ...f, uid: nextUid(), text: f.text ?? '' })),
  };
}

/** The body the server takes (create, update, preview). */
export function bodyOf(draft: TemplateDraft): CertificateTemplateBodyInput {
  return {
    name: draft.name,
    kind: draft.kind,
    awardLevel: draft.kind === 'AWARD' && draft.awardLevel.trim() ? draft.awardLevel.trim() : null,
    pageSize: draft.pageSize,
    orientation: draft.orientation,
    background: draft.background?.uniqueNo ?? null,
    // The editor's own uid stays behind; only a fixed-text field sends its text.
    fields: draft.fields.map(({ uid: _uid, text, ...field }) => ({ ...field, ...(field.key === 'text' ? { text } : {}) })),
  };
}
