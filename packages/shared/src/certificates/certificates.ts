/**
 * Certificates and letters (docs/certificates.md): award certificates
 * (final), promotion notices (preliminary), participation certificates, expert appointment and
 * thanks letters. Request schemas and answer shapes shared by the server and the web.
 *
 * `{r}` in paths is a round slug (`prelim` | `final`, ROUND_SLUGS of review/access.ts). A
 * "project" id is the preliminary-materials id (prelim_docs.id), as in review and results.
 *
 * Routes (method, path, realm, permission):
 *
 *   Admin console (realm ADMIN)
 *   GET    /admin/certificates/templates                          menu certificateTemplate      list (TemplateListQuery) -> Page<CertificateTemplateRow>
 *   GET    /admin/certificates/templates/{id}                     menu certificateTemplate      -> CertificateTemplateDetail (current version)
 *   POST   /admin/certificates/templates                          certificate:manage            CertificateTemplateBody -> CertificateTemplateDetail (version 1)
 *   PUT    /admin/certificates/templates/{id}                     certificate:manage            CertificateTemplateUpdateBody -> CertificateTemplateDetail (a new version)
 *   PUT    /admin/certificates/templates/{id}/enabled             certificate:manage            {enabled} -> CertificateTemplateDetail (no new version)
 *   GET    /admin/certificates/templates/{id}/versions            menu certificateTemplate      -> CertificateTemplateVersionRow[] (newest first)
 *   GET    /admin/certificates/templates/{id}/versions/{n}        menu certificateTemplate      -> CertificateTemplateVersion
 *   GET    /admin/certificates/templates/{id}/versions/{n}/preview?recordId=   menu certificateTemplate   -> application/pdf (not stored)
 *   POST   /admin/certificates/templates/preview                  certificate:manage            CertificatePreviewBody -> application/pdf (not stored)
 *   GET    /admin/certificates/preview-records?kind=&keyword=     menu certificateTemplate      -> CertificatePreviewRecord[] (at most 20; pick a real record)
 *   GET    /admin/certificates/overview                           menu certificateManage        -> CertificateOverview (both rounds)
 *   POST   /admin/certificates/{r}/issue                          certificate:issue             CertificateIssueBody -> CertificateIssueStarted (a durable job)
 *   GET    /admin/certificates/jobs/{jobId}                       menu certificateManage        -> CertificateJobView (progress)
 *   GET    /admin/certificates/documents                          menu certificateManage        list (CertificateDocumentQuery) -> Page<CertificateDocumentRow>
 *   GET    /admin/certificates/documents/{id}/pdf                 certificate:download          -> application/pdf (audited)
 *   GET    /admin/certificates/{r}/zip?status=&kind=              certificate:download          -> application/zip, streamed (audited)
 *
 *   Participant (realm USER): the documents of the caller's own team; another team's id -> 404
 *   GET    /certificates/mine                                     signed-in participant         -> MyCertificate[]
 *   GET    /certificates/{id}/pdf                                 signed-in participant         -> application/pdf
 *
 *   Expert (realm EXPERT): the caller's own letters; another expert's id -> 404
 *   GET    /expert/certificates/mine                              signed-in expert              -> MyCertificate[]
 *   GET    /expert/certificates/{id}/pdf                          signed-in expert              -> application/pdf
 *
 *   Public (no sign-in, rate-limited)
 *   GET    /certificates/verify/{serial}                          public                        -> CertificateVerification; unknown -> 404 serialUnknown,
 *                                                                                               not a serial's shape -> 400 serialInvalid (lower case, spaces, I/L/O accepted)
 *
 * The QR code of every document points to the web page PUBLIC_URL/verify/{serial} (a site page
 * that calls GET /certificates/verify/{serial}).
 *
 * Background images are uploaded with the files module's one-request upload
 * (POST /attachment/upload/public, origin CERT: png/jpeg, 10 MB, button certificate:manage) and
 * named in a template by the answer's `uniqueNo`.
 */
import { z } from 'zod';
import { blankToUndefined, keywordQuery, optionalQuery, pageQueryFields, uuidSchema, type IsoDateTime } from '../admin/common.js';
import { sortQueryFields } from '../admin/list-query.js';
import { REVIEW_ROUNDS, type ReviewRound } from '../admin/settings.js';
import { CERTIFICATE_MSG as M } from './messages.js';

export { CERTIFICATE_MSG } from './messages.js';

// ------------------------------------------------------------------ enums and limits

/**
 * AWARD: final award certificate (per award level); PROMOTION: preliminary promotion notice;
 * PARTICIPATION: participation certificate (either round); EXPERT_APPOINTMENT / EXPERT_THANKS:
 * letters to the experts of a round.
 */
export const CERTIFICATE_KINDS = ['AWARD', 'PROMOTION', 'PARTICIPATION', 'EXPERT_APPOINTMENT', 'EXPERT_THANKS'] as const;
export type CertificateKind = (typeof CERTIFICATE_KINDS)[number];
export const CERTIFICATE_KIND_NAMES: Record<CertificateKind, string> = {
  AWARD: '获奖证书',
  PROMOTION: '晋级通知书',
  PARTICIPATION: '参赛证书',
  EXPERT_APPOINTMENT: '专家聘书',
  EXPERT_THANKS: '专家感谢信',
};
export const CERTIFICATE_KIND_NAMES_EN: Record<CertificateKind, string> = {
  AWARD: 'Award certificate',
  PROMOTION: 'Promotion notice',
  PARTICIPATION: 'Participation certificate',
  EXPERT_APPOINTMENT: 'Expert appointment letter',
  EXPERT_THANKS: 'Expert thank-you letter',
};
/** Kinds held by a team (holder = team) and by an expert (holder = expert). */
export const TEAM_CERTIFICATE_KINDS = ['AWARD', 'PROMOTION', 'PARTICIPATION'] as const satisfies readonly CertificateKind[];
export const EXPERT_CERTIFICATE_KINDS = ['EXPERT_APPOINTMENT', 'EXPERT_THANKS'] as const satisfies readonly CertificateKind[];
export const isExpertCertificateKind = (k: CertificateKind) => k === 'EXPERT_APPOINTMENT' || k === 'EXPERT_THANKS';

/** Which kinds a round issues: preliminary PROMOTION, final AWARD; both PARTICIPATION and the expert letters. */
export const CERTIFICATE_KINDS_BY_ROUND: Record<ReviewRound, readonly CertificateKind[]> = {
  PRELIMINARY: ['PROMOTION', 'PARTICIPATION', 'EXPERT_APPOINTMENT', 'EXPERT_THANKS'],
  FINAL: ['AWARD', 'PARTICIPATION', 'EXPERT_APPOINTMENT', 'EXPERT_THANKS'],
};

/**
 * VALID: the current document. SUPERSEDED: a later result version changed the holder's outcome
 * (or the document was remade from it); `successorSerial` names the new one. REVOKED: the holder
 * no longer qualifies (e.g. no longer awarded) and there is no successor.
 */
export const CERTIFICATE_STATUSES = ['VALID', 'SUPERSEDED', 'REVOKED'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];
export const CERTIFICATE_STATUS_NAMES: Record<CertificateStatus, string> = { VALID: '有效', SUPERSEDED: '已被替代', REVOKED: '已撤销' };
export const CERTIFICATE_STATUS_NAMES_EN: Record<CertificateStatus, string> = { VALID: 'Valid', SUPERSEDED: 'Superseded', REVOKED: 'Revoked' };

export const CERTIFICATE_PAGE_SIZES = ['A4', 'A5'] as const;
export type CertificatePageSize = (typeof CERTIFICATE_PAGE_SIZES)[number];
export const CERTIFICATE_ORIENTATIONS = ['PORTRAIT', 'LANDSCAPE'] as const;
export type CertificateOrientation = (typeof CERTIFICATE_ORIENTATIONS)[number];
/** Page sizes in PDF points (1/72 inch), portrait; landscape swaps them. */
export const CERTIFICATE_PAGE_POINTS: Record<CertificatePageSize, { width: number; height: number }> = {
  A4: { width: 595.28, height: 841.89 },
  A5: { width: 419.53, height: 595.28 },
};

/**
 * What a placed field prints:
 * team 队伍名称, project 项目名称, organisation 单位 (the team's, or the expert's), members 团队成员
 * (leader then members, names joined by 、),
 * award 奖项 (AWARD: the level's name; PROMOTION: 晋级决赛; else empty), expertName 专家姓名,
 * contest 大赛名称, round 轮次 (初赛 / 决赛), date 颁发日期 (YYYY年M月D日, Beijing), serial 证书编号,
 * qr the verification QR code (square; `width` is its side), text a fixed text (`text`).
 */
export const CERTIFICATE_FIELD_KEYS = ['team', 'project', 'organisation', 'members', 'award', 'expertName', 'contest', 'round', 'date', 'serial', 'qr', 'text'] as const;
export type CertificateFieldKey = (typeof CERTIFICATE_FIELD_KEYS)[number];
export const CERTIFICATE_FIELD_NAMES: Record<CertificateFieldKey, string> = {
  team: '队伍名称',
  project: '项目名称',
  organisation: '单位',
  members: '团队成员',
  award: '奖项',
  expertName: '专家姓名',
  contest: '大赛名称',
  round: '轮次',
  date: '颁发日期',
  serial: '证书编号',
  qr: '验证二维码',
  text: '固定文字',
};
export const CERTIFICATE_FIELD_NAMES_EN: Record<CertificateFieldKey, string> = {
  team: 'Team',
  project: 'Project',
  organisation: 'Organisation',
  members: 'Members',
  award: 'Award',
  expertName: 'Expert name',
  contest: 'Contest',
  round: 'Round',
  date: 'Issue date',
  serial: 'Serial number',
  qr: 'Verification QR code',
  text: 'Fixed text',
};
/** Keys that only make sense for team kinds / for expert kinds (others fit both). */
export const TEAM_ONLY_FIELD_KEYS = ['team', 'project', 'members', 'award'] as const satisfies readonly CertificateFieldKey[];
export const EXPERT_ONLY_FIELD_KEYS = ['expertName'] as const satisfies readonly CertificateFieldKey[];

export const CERTIFICATE_ALIGNS = ['left', 'center', 'right'] as const;
export type CertificateAlign = (typeof CERTIFICATE_ALIGNS)[number];

export const CERTIFICATE_TEMPLATE_NAME_MAX = 50;
export const CERTIFICATE_FIELDS_MAX = 40;
export const CERTIFICATE_TEXT_MAX = 200;
export const CERTIFICATE_FONT_SIZE_MIN = 6;
export const CERTIFICATE_FONT_SIZE_MAX = 120;
/** Background images: png or jpeg, at most this many bytes (files origin CERT). */
export const CERTIFICATE_BACKGROUND_MAX_BYTES = 10 * 1024 * 1024;
export const CERTIFICATE_BACKGROUND_EXTENSIONS = ['png', 'jpg', 'jpeg'] as const;

// ------------------------------------------------------------------ serials

/**
 * A serial is the contest year, a dash, and 16 Crockford base32 characters (80 random bits) in
 * groups of four: `2026-7K3Q-9XWD-M2PA-RT0V`. The alphabet leaves out I, L, O and U; lookups
 * accept lower case, spaces, and I/L for 1 and O for 0 (normaliseCertificateSerial).
 */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CERTIFICATE_SERIAL_PATTERN = /^\d{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** The canonical form of a typed or scanned serial, or null when it cannot be one. */
export function normaliseCertificateSerial(input: string): string | null {
  const raw = input.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  if (!/^\d{4}[0-9A-HJKMNP-TV-Z]{16}$/.test(raw)) return null;
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}-${raw.slice(12, 16)}-${raw.slice(16, 20)}`;
}

/** Path of the public verification page (web) for a serial; the QR code holds PUBLIC_URL + this. */
export const certificateVerifyPath = (serial: string) => `/verify/${encodeURIComponent(serial)}`;

// ------------------------------------------------------------------ templates

const fraction = (message: string) => z.number({ error: message }).min(0, message).max(1, message);

export const certificateFieldSchema = z
  .object({
    key: z.enum(CERTIFICATE_FIELD_KEYS, { error: M.fieldKeyInvalid }),
    /** Left edge and top edge (qr: the square's top left), as fractions of the page's width and height. */
    x: fraction(M.fieldPositionInvalid),
    y: fraction(M.fieldPositionInvalid),
    /** Width of the text box (qr: the square's side) as a fraction of the page's width; text wraps inside it. */
    width: z.number({ error: M.fieldWidthInvalid }).gt(0, M.fieldWidthInvalid).max(1, M.fieldWidthInvalid),
    /** Points; ignored for qr. */
    fontSize: z
      .number({ error: M.fieldFontSizeInvalid })
      .min(CERTIFICATE_FONT_SIZE_MIN, M.fieldFontSizeInvalid)
      .max(CERTIFICATE_FONT_SIZE_MAX, M.fieldFontSizeInvalid)
      .default(16),
    align: z.enum(CERTIFICATE_ALIGNS, { error: M.fieldAlignInvalid }).default('left'),
    bold: z.boolean({ error: M.fieldBoldInvalid }).default(false),
    /** #RRGGBB; the QR code is always printed dark on light whatever this says. */
    color: z.string({ error: M.fieldColorInvalid }).regex(/^#[0-9a-fA-F]{6}$/, M.fieldColorInvalid).default('#000000'),
    /** `text` fields only: the fixed text. */
    text: z.string({ error: M.fieldTextRequired }).max(CERTIFICATE_TEXT_MAX, M.fieldTextTooLong).nullish(),
  })
  .superRefine((f, ctx) => {
    if (f.x + f.width > 1.0001) ctx.addIssue({ code: 'custom', path: ['width'], message: M.fieldOutsidePage });
    if (f.key === 'text' && !f.text?.trim()) ctx.addIssue({ code: 'custom', path: ['text'], message: M.fieldTextRequired });
    if (f.key !== 'text' && f.text) ctx.addIssue({ code: 'custom', path: ['text'], message: M.fieldTextOnlyForText });
  });
export type CertificateFieldInput = z.input<typeof certificateFieldSchema>;
export type CertificateField = z.infer<typeof certificateFieldSchema>;

/** The body of a template (create, update and preview). */
const templateObject = z.object({
  name: z.string({ error: M.nameRequired }).trim().min(1, M.nameRequired).max(CERTIFICATE_TEMPLATE_NAME_MAX, M.nameTooLong),
  kind: z.enum(CERTIFICATE_KINDS, { error: M.kindInvalid }),
  /**
   * AWARD only: the award level's name as published (e.g. 一等奖); null/absent = every level
   * (a template naming the level wins over one for all levels).
   */
  awardLevel: z.preprocess(blankToUndefined, z.string({ error: M.awardLevelTooLong }).max(20, M.awardLevelTooLong).nullish()),
  pageSize: z.enum(CERTIFICATE_PAGE_SIZES, { error: M.pageSizeInvalid }).default('A4'),
  orientation: z.enum(CERTIFICATE_ORIENTATIONS, { error: M.orientationInvalid }).default('LANDSCAPE'),
  /** The `uniqueNo` of an upload of origin CERT; null = plain white page. */
  background: z.string({ error: M.backgroundInvalid }).min(1, M.backgroundInvalid).max(100, M.backgroundInvalid).nullish(),
  fields: z
    .array(certificateFieldSchema, { error: M.fieldsRequired })
    .min(1, M.fieldsRequired)
    .max(CERTIFICATE_FIELDS_MAX, M.fieldsTooMany),
});

const templateRules = (t: z.infer<typeof templateObject>, ctx: z.RefinementCtx) => {
  if (t.kind !== 'AWARD' && t.awardLevel) ctx.addIssue({ code: 'custom', path: ['awardLevel'], message: M.awardLevelOnlyForAward });
  const expertKind = isExpertCertificateKind(t.kind);
  let qr = 0;
  t.fields.forEach((f, i) => {
    if (f.key === 'qr') qr++;
    const teamOnly = (TEAM_ONLY_FIELD_KEYS as readonly string[]).includes(f.key);
    const expertOnly = (EXPERT_ONLY_FIELD_KEYS as readonly string[]).includes(f.key);
    if ((expertKind && teamOnly) || (!expertKind && expertOnly)) ctx.addIssue({ code: 'custom', path: ['fields', i, 'key'], message: M.fieldKeyNotForKind });
  });
  if (qr > 1) ctx.addIssue({ code: 'custom', path: ['fields'], message: M.fieldQrDuplicate });
};

/** POST /admin/certificates/templates */
export const certificateTemplateBodySchema = templateObject.superRefine(templateRules);
export type CertificateTemplateBody = z.infer<typeof certificateTemplateBodySchema>;
export type CertificateTemplateBodyInput = z.input<typeof certificateTemplateBodySchema>;

/**
 * PUT /admin/certificates/templates/{id}: the whole template again; saved as a new version.
 * `baseVersion` (the version the editor loaded) guards against two editors: if another save
 * came first the answer is 400 templateChanged with `data.reason = 'STALE'` (as the workflow core's
 * stale refusals).
 */
export const certificateTemplateUpdateBodySchema = templateObject
  .extend({ baseVersion: z.number({ error: M.baseVersionInvalid }).int(M.baseVersionInvalid).min(1, M.baseVersionInvalid).optional() })
  .superRefine(templateRules);
export type CertificateTemplateUpdateBody = z.infer<typeof certificateTemplateUpdateBodySchema>;
export type CertificateTemplateUpdateBodyInput = z.input<typeof certificateTemplateUpdateBodySchema>;

/**
 * POST /admin/certificates/templates/preview: a draft (not saved) printed for a real record:
 * `recordId` is a project id (prelim_docs.id) for team kinds or an expert id for expert kinds;
 * without it a sample record is used (样例队伍...). The serial printed is the sample
 * `{year}-0000-0000-0000-0000` (never issued) and the QR code points to it.
 */
export const certificatePreviewBodySchema = z.object({
  template: certificateTemplateBodySchema,
  recordId: z.preprocess(blankToUndefined, uuidSchema.optional()),
  /** Team kinds: which round's data to print (default: FINAL for AWARD, PRELIMINARY for PROMOTION, else FINAL). */
  round: optionalQuery(z.enum(REVIEW_ROUNDS, { error: M.roundInvalid })),
});
export type CertificatePreviewBody = z.infer<typeof certificatePreviewBodySchema>;
export type CertificatePreviewBodyInput = z.input<typeof certificatePreviewBodySchema>;

/** GET /admin/certificates/templates/{id}/versions/{n}/preview */
export const certificateVersionPreviewQuerySchema = z.object({
  recordId: z.preprocess(blankToUndefined, uuidSchema.optional()),
  round: optionalQuery(z.enum(REVIEW_ROUNDS, { error: M.roundInvalid })),
});
export type CertificateVersionPreviewQuery = z.infer<typeof certificateVersionPreviewQuerySchema>;

export const certificateTemplateVersionParamsSchema = z.object({
  id: uuidSchema,
  n: z.coerce.number({ error: M.templateVersionNotFound }).int(M.templateVersionNotFound).min(1, M.templateVersionNotFound).max(1_000_000, M.templateVersionNotFound),
});
export type CertificateTemplateVersionParams = z.infer<typeof certificateTemplateVersionParamsSchema>;

/** GET /admin/certificates/templates */
export const certificateTemplateListQuerySchema = z.object({
  ...pageQueryFields,
  ...sortQueryFields(['name', 'updatedAt']),
  kind: optionalQuery(z.enum(CERTIFICATE_KINDS, { error: M.kindInvalid })),
  keyword: keywordQuery,
});
export type CertificateTemplateListQuery = z.infer<typeof certificateTemplateListQuerySchema>;

/** GET /admin/certificates/preview-records: real records to preview with (projects or experts, by kind). */
export const certificatePreviewRecordQuerySchema = z.object({
  kind: z.enum(CERTIFICATE_KINDS, { error: M.kindInvalid }),
  keyword: keywordQuery,
});
export type CertificatePreviewRecordQuery = z.infer<typeof certificatePreviewRecordQuerySchema>;
export interface CertificatePreviewRecord {
  /** The `recordId` to send. */
  id: string;
  /** Team name + project name, or the expert's name. */
  label: string;
}

export interface CertificateBackground {
  uniqueNo: string;
  name: string;
  size: number;
  /** Where the console may show it (admin-only download). */
  filePath: string;
}

export interface CertificateTemplateRow {
  id: string;
  name: string;
  kind: CertificateKind;
  awardLevel: string | null;
  pageSize: CertificatePageSize;
  orientation: CertificateOrientation;
  enabled: boolean;
  /** The current (latest) version number. */
  version: number;
  /** Documents made from any version of this template. */
  documentCount: number;
  updatedAt: IsoDateTime;
  updatedBy: string | null;
}

/** One saved version: what documents made from it were printed with. */
export interface CertificateTemplateVersion {
  templateId: string;
  version: number;
  name: string;
  kind: CertificateKind;
  awardLevel: string | null;
  pageSize: CertificatePageSize;
  orientation: CertificateOrientation;
  background: CertificateBackground | null;
  fields: CertificateField[];
  createdAt: IsoDateTime;
  createdBy: string | null;
}

export interface CertificateTemplateVersionRow {
  version: number;
  name: string;
  createdAt: IsoDateTime;
  createdBy: string | null;
  /** Documents made from this version. */
  documentCount: number;
}

export interface CertificateTemplateDetail extends CertificateTemplateVersion {
  id: string;
  enabled: boolean;
  updatedAt: IsoDateTime;
}

// ------------------------------------------------------------------ issuing

/**
 * POST /admin/certificates/{r}/issue: issue the chosen kinds for the round's PUBLISHED result
 * version (400 notPublished otherwise). Idempotent: documents already issued for the same
 * holder, kind, award and version content are kept; a holder whose outcome changed gets a new
 * document and the old one becomes SUPERSEDED; a holder who no longer qualifies gets REVOKED.
 *
 * - PROMOTION: promoted projects of the preliminary version; AWARD: awarded projects of the
 *   final version (one per project, its level); PARTICIPATION: the version's other projects
 *   (NOT_PROMOTED / NONE) — `participationForAll` gives one to every project of the version.
 * - EXPERT_APPOINTMENT / EXPERT_THANKS: every expert assigned to the round's review groups.
 *
 * Templates: each document uses an enabled template of its kind (AWARD: one naming its level,
 * else one for all levels). `templateIds` limits the choice to these; two candidates at the same
 * rank -> 400 templateAmbiguous (data.kind, data.awardLevel), none -> 400 templateMissing.
 */
export const certificateIssueBodySchema = z.object({
  kinds: z
    .array(z.enum(CERTIFICATE_KINDS, { error: M.kindInvalid }), { error: M.kindsRequired })
    .min(1, M.kindsRequired)
    .max(CERTIFICATE_KINDS.length, M.kindsRequired)
    .refine((k) => new Set(k).size === k.length, M.kindsRequired),
  templateIds: z.array(uuidSchema, { error: M.templateIdsInvalid }).max(50, M.templateIdsInvalid).optional(),
  participationForAll: z.boolean({ error: M.participationInvalid }).default(false),
});
export type CertificateIssueBody = z.infer<typeof certificateIssueBodySchema>;
export type CertificateIssueBodyInput = z.input<typeof certificateIssueBodySchema>;

export interface CertificateIssueStarted {
  jobId: string;
  /** The result version the documents are made from. */
  resultVersion: number;
  /** True when a job for this round was already running: its id is returned, no second one starts. */
  alreadyRunning: boolean;
}

export const CERTIFICATE_JOB_STATUSES = ['QUEUED', 'RUNNING', 'DONE', 'FAILED'] as const;
export type CertificateJobStatus = (typeof CERTIFICATE_JOB_STATUSES)[number];

/** GET /admin/certificates/jobs/{jobId} */
export interface CertificateJobView {
  id: string;
  round: ReviewRound;
  status: CertificateJobStatus;
  /** Holders handled of the total. */
  progress: { done: number; total: number };
  /** When DONE: documents issued, kept unchanged, superseded and revoked by this run. */
  summary: { issued: number; unchanged: number; superseded: number; revoked: number } | null;
  error: string | null;
  createdAt: IsoDateTime;
  finishedAt: IsoDateTime | null;
}

export interface CertificateRoundOverview {
  round: ReviewRound;
  /** The PUBLISHED result version number, or null when the round's result is not published. */
  publishedVersion: number | null;
  /** The result version the VALID documents were made from (null when none were issued). */
  issuedVersion: number | null;
  /** Counts by kind and status. */
  counts: Array<{ kind: CertificateKind; status: CertificateStatus; count: number }>;
  /** The latest issue job of the round (running or finished). */
  lastJob: CertificateJobView | null;
  /** Kinds this round issues (CERTIFICATE_KINDS_BY_ROUND). */
  kinds: CertificateKind[];
}

/** GET /admin/certificates/overview */
export interface CertificateOverview {
  rounds: CertificateRoundOverview[];
}

// ------------------------------------------------------------------ documents

/** GET /admin/certificates/documents (admin kit list query). */
export const certificateDocumentQuerySchema = z.object({
  ...pageQueryFields,
  ...sortQueryFields(['issuedAt', 'serial', 'holderName']),
  round: optionalQuery(z.enum(REVIEW_ROUNDS, { error: M.roundInvalid })),
  kind: optionalQuery(z.enum(CERTIFICATE_KINDS, { error: M.kindInvalid })),
  status: optionalQuery(z.enum(CERTIFICATE_STATUSES, { error: M.statusInvalid })),
  /** Contains, in the serial, holder name, project name or award. */
  keyword: keywordQuery,
});
export type CertificateDocumentQuery = z.infer<typeof certificateDocumentQuerySchema>;

/** GET /admin/certificates/{r}/zip: every document of the round (default: VALID only). */
export const certificateZipQuerySchema = z.object({
  status: optionalQuery(z.enum(CERTIFICATE_STATUSES, { error: M.statusInvalid })),
  kind: optionalQuery(z.enum(CERTIFICATE_KINDS, { error: M.kindInvalid })),
});
export type CertificateZipQuery = z.infer<typeof certificateZipQuerySchema>;

export const certificateJobParamsSchema = z.object({ jobId: uuidSchema });
export const certificateSerialParamsSchema = z.object({
  serial: z.string({ error: M.serialInvalid }).max(40, M.serialInvalid),
});

export interface CertificateDocumentRow {
  id: string;
  serial: string;
  kind: CertificateKind;
  round: ReviewRound;
  status: CertificateStatus;
  /** Team name or expert name at issue time (initials after retention anonymised the person). */
  holderName: string;
  /** Team kinds: the project (prelim_docs.id) and its name; null for expert letters. */
  projectId: string | null;
  projectName: string | null;
  /** AWARD: the level's name; PROMOTION: 晋级决赛; else null. */
  award: string | null;
  resultVersion: number;
  templateId: string;
  templateVersion: number;
  issuedAt: IsoDateTime;
  /** SUPERSEDED: the successor's serial. */
  successorSerial: string | null;
  /** When it became SUPERSEDED or REVOKED. */
  endedAt: IsoDateTime | null;
}

/** GET /certificates/mine and GET /expert/certificates/mine: newest first; every status shown. */
export interface MyCertificate {
  id: string;
  serial: string;
  kind: CertificateKind;
  round: ReviewRound;
  status: CertificateStatus;
  holderName: string;
  projectName: string | null;
  award: string | null;
  resultVersion: number;
  issuedAt: IsoDateTime;
  successorSerial: string | null;
  /** GET path of the PDF for the caller's realm. */
  downloadPath: string;
  /** The public verification page path (certificateVerifyPath). */
  verifyPath: string;
}

// ------------------------------------------------------------------ public verification

/** GET /certificates/verify/{serial}: no phone, e-mail or ID number, ever. */
export interface CertificateVerification {
  serial: string;
  status: CertificateStatus;
  kind: CertificateKind;
  /** Team name or expert name (initials only after the person was anonymised). */
  holderName: string;
  holderType: 'TEAM' | 'EXPERT';
  projectName: string | null;
  award: string | null;
  contestName: string;
  round: ReviewRound;
  resultVersion: number;
  issuedAt: IsoDateTime;
  /** SUPERSEDED: the serial of the document that replaced it. */
  successorSerial: string | null;
}
