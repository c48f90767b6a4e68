import { z } from 'zod';
import type { IsoDateTime } from '../admin/common.js';
import type { PrelimDocStatus, TeamStatus } from '../enums.js';
import { charLength, draftCode, draftText, fileRef, requiredCode, requiredFileRef, requiredText, UNIQUE_NO_PATTERN } from './form-fields.js';
import { CONTEST_MSG as M } from './messages.js';
import type { ContestAttachment, StatusHistoryEntry } from './team.js';

export const SUMMARY_MAX_CHARS = 500;
export const KEYWORDS_MAX = 5;
export const KEYWORD_MAX_CHARS = 20;
export const PRELIM_OTHERS_MAX = 5;

/** File kinds of the materials and the extensions each accepts (all uploaded with origin PRELIM). */
export const PRELIM_FILE_EXTENSIONS = {
  application: ['pdf'],
  presentation: ['pdf', 'ppt', 'pptx'],
  video: ['mp4'],
  other: ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'jpg', 'jpeg', 'png', 'mp4', 'zip', 'rar', '7z'],
} as const;
export type PrelimFileKind = keyof typeof PRELIM_FILE_EXTENSIONS;

const MB = 1024 * 1024;
/**
 * Default size ceilings per kind (the setting `prelim.fileMaxBytes` overrides any of them). The
 * application PDF is read whole to count its characters, hence its smaller ceiling.
 */
export const PRELIM_FILE_MAX_BYTES: Record<PrelimFileKind, number> = {
  application: 50 * MB,
  presentation: 200 * MB,
  video: 500 * MB,
  other: 200 * MB,
};

const summaryField = (required: boolean) =>
  z.preprocess(
    (v) => (v === null || v === undefined ? '' : v),
    z
      .string()
      .trim()
      .refine((v) => !required || v.length > 0, M.summaryRequired)
      .refine((v) => charLength(v) <= SUMMARY_MAX_CHARS, M.summaryTooLong),
  );

const keyword = z.string({ error: M.keywordInvalid }).trim().min(1, M.keywordInvalid).refine((v) => charLength(v) <= KEYWORD_MAX_CHARS, M.keywordInvalid);
// Empty entries (a cleared tag input) are dropped rather than refused.
const dropBlankKeywords = (v: unknown) =>
  v === null || v === undefined ? [] : Array.isArray(v) ? v.filter((k) => !(typeof k === 'string' && k.trim() === '')) : v;

const others = z.preprocess(
  (v) => v ?? [],
  z.array(z.string({ error: M.attachmentInvalid }).regex(UNIQUE_NO_PATTERN, M.attachmentInvalid), { error: M.attachmentInvalid }).max(PRELIM_OTHERS_MAX, M.othersTooMany),
);

/** PUT /prelim-doc/my: types and lengths only. */
export const prelimDraftSchema = z.object({
  projectName: draftText(100, M.projectNameTooLong),
  track: draftCode(M.trackInvalid),
  summary: summaryField(false),
  keywords: z.preprocess(dropBlankKeywords, z.array(keyword, { error: M.keywordInvalid }).max(KEYWORDS_MAX, M.keywordsTooMany)),
  application: fileRef,
  presentation: fileRef,
  video: fileRef,
  others,
});

/** POST /prelim-doc/my/submit: every required field. */
export const prelimSubmitSchema = z.object({
  projectName: requiredText(M.projectNameRequired, 100, M.projectNameTooLong),
  track: requiredCode(M.trackRequired, M.trackInvalid),
  summary: summaryField(true),
  keywords: z.preprocess(
    dropBlankKeywords,
    z.array(keyword, { error: M.keywordsRequired }).min(1, M.keywordsRequired).max(KEYWORDS_MAX, M.keywordsTooMany),
  ),
  application: requiredFileRef(M.applicationRequired),
  presentation: requiredFileRef(M.presentationRequired),
  video: fileRef,
  others,
});

export interface PrelimForm {
  projectName: string;
  /** TRACK code; defaults to the sign-up's. */
  track: string;
  summary: string;
  keywords: string[];
  /** uniqueNo of attachments uploaded with origin PRELIM by this participant. */
  application: string | null;
  presentation: string | null;
  video: string | null;
  others: string[];
}
export type PrelimFormInput = z.input<typeof prelimDraftSchema>;

/** GET /prelim-doc/my (null unless the sign-up is approved) and the admin's materials detail. */
export interface PrelimDetail extends Omit<PrelimForm, 'application' | 'presentation' | 'video' | 'others'> {
  /** null while NOT_FILLED (nothing saved yet). */
  id: string | null;
  teamId: string;
  teamName: string;
  status: PrelimDocStatus;
  application: ContestAttachment | null;
  /** Counted by the server from the stored PDF (docs/rules/prelim.md); null when not counted yet. */
  applicationChars: number | null;
  /** The cap of `prelim.maxApplicationChars`, null when there is none. */
  maxApplicationChars: number | null;
  /** Size ceilings per kind now in force (大赛设置), so the uploader refuses what the server would. */
  fileMaxBytes: Record<PrelimFileKind, number>;
  presentation: ContestAttachment | null;
  video: ContestAttachment | null;
  others: ContestAttachment[];
  auditReason: string | null;
  submittedAt: IsoDateTime | null;
  auditedAt: IsoDateTime | null;
  createdAt: IsoDateTime | null;
  updatedAt: IsoDateTime | null;
  editable: boolean;
  history: StatusHistoryEntry[];
  owner?: { id: string; username: string; phone: string | null };
  /** The project is in the final round now (promoted or added): the participant sees 晋级决赛. */
  inFinal?: boolean;
}

/** GET /prelim-doc/my-brief. */
export interface PrelimBrief {
  teamStatus: TeamStatus | null;
  /** null unless the sign-up is approved; NOT_FILLED until first saved. */
  prelimDocStatus: PrelimDocStatus | null;
  id: string | null;
  projectName: string | null;
  applicationChars: number | null;
  maxApplicationChars: number | null;
  auditReason: string | null;
  submittedAt: IsoDateTime | null;
  updatedAt: IsoDateTime | null;
  editable: boolean;
  /** The preliminary submission window is open now. */
  submissionOpen: boolean;
}
