import { z } from 'zod';
import { enabledQuery, keywordQuery, optionalQuery, pageQueryFields, type IsoDateTime } from '../admin/common.js';
import { sortQueryFields } from '../admin/list-query.js';
import { ADMIN_MSG } from '../admin/messages.js';
import type { Locale } from '../enums.js';
import { normalizeLocale } from '../locale.js';
import { DOCUMENT_MSG as D } from './document-messages.js';
import { CONTENT_MSG as M } from './messages.js';

/** 模板 (templates), 指南 (guides), 数据文档 (data documents of /module). Same codes as the DOC_CATEGORY dictionary. */
export const DOC_CATEGORIES = ['TEMPLATE', 'GUIDE', 'DATA'] as const;
export type DocCategory = (typeof DOC_CATEGORIES)[number];

/** Who sees a document: anyone, any signed-in participant, or participants whose team is APPROVED. */
export const DOC_AUDIENCES = ['PUBLIC', 'PARTICIPANT', 'APPROVED'] as const;
export type DocAudience = (typeof DOC_AUDIENCES)[number];

/** Codes of the templates the site links to through GET /template/public?code=. */
export const TEMPLATE_CODES = {
  commitmentLetter: 'COMMITMENT_LETTER',
  applicationForm: 'APPLICATION_FORM',
} as const;

export const DOC_CODE_PATTERN = /^[A-Z][A-Z0-9_]{1,63}$/;

/** GET /template/public?code=COMMITMENT_LETTER */
export const templateQuerySchema = z.object({
  code: z.string({ error: M.docCodeRequired }).trim().min(1, M.docCodeRequired).regex(DOC_CODE_PATTERN, M.docCodeInvalid),
});
export type TemplateQuery = z.infer<typeof templateQuerySchema>;

/**
 * `lang` of the public document and site-block reads: `en` answers English titles (and block
 * bodies) where written, else the Chinese; anything else, or nothing, defers to Accept-Language.
 */
export const contentLangQuery = optionalQuery(z.string().max(35).transform((v): Locale | undefined => normalizeLocale(v) ?? undefined));

/** GET /documents?category=DATA&lang=en */
export const documentListQuerySchema = z.object({
  category: optionalQuery(z.enum(DOC_CATEGORIES, { error: M.docCategoryInvalid })),
  lang: contentLangQuery,
});
export type DocumentListQuery = z.infer<typeof documentListQuerySchema>;

/** A stored file as lists show it. `filePath` streams it (GET /attachment/stream). */
export interface FileRef {
  uniqueNo: string;
  name: string;
  size: number;
  filePath: string;
}

export interface DocumentItem {
  id: string;
  code: string | null;
  /** In the asked language: the English title on English pages where there is one, else the Chinese. */
  title: string;
  category: DocCategory;
  audience: DocAudience;
  file: FileRef;
  /** Download that checks the document's audience (works for non-public files too). */
  downloadPath: string;
  updatedAt: IsoDateTime;
}

// ---- 文档管理 (/admin/user/docManage) ----

export const DOC_TITLE_MAX = 100;
export const DOC_SORT_MAX = 9999;

/** Chinese names for operation records (the console has its own translated labels). */
export const DOC_CATEGORY_NAMES: Record<DocCategory, string> = { TEMPLATE: '模板', GUIDE: '指南', DATA: '数据文档' };
export const DOC_AUDIENCE_NAMES: Record<DocAudience, string> = { PUBLIC: '所有人', PARTICIPANT: '已登录参赛者', APPROVED: '审核通过的团队' };

/** Missing -> "please choose", anything else that is not one of the values -> "not valid". */
const choice = (required: string, invalid: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null || issue.input === '' ? required : invalid;

/** GET /admin/documents: one page, ordered by category, then sort, then title. */
export const documentAdminListQuerySchema = z.object({
  ...pageQueryFields,
  ...sortQueryFields(['sort', 'title', 'updatedAt']),
  category: optionalQuery(z.enum(DOC_CATEGORIES, { error: M.docCategoryInvalid })),
  audience: optionalQuery(z.enum(DOC_AUDIENCES, { error: D.docAudienceInvalid })),
  enabled: enabledQuery,
  /** Title, English title, code or file name, contains. */
  keyword: keywordQuery,
});
export type DocumentAdminListQuery = z.infer<typeof documentAdminListQuerySchema>;

/** POST /admin/documents and PUT /admin/documents/{id}. */
export const documentBodySchema = z.object({
  title: z.string({ error: D.docTitleRequired }).trim().min(1, D.docTitleRequired).max(DOC_TITLE_MAX, D.docTitleTooLong),
  /** Blank means none: English pages then show `title`. */
  titleEn: z
    .string({ error: D.docTitleEnTooLong })
    .trim()
    .max(DOC_TITLE_MAX, D.docTitleEnTooLong)
    .nullish()
    .transform((v) => v || null),
  /** uniqueNo of an attachment uploaded with origin DOC. */
  file: z.string({ error: D.docFileRequired }).trim().min(1, D.docFileRequired).max(64, D.docFileInvalid),
  /** Optional, unique: the code /template/public serves it by. Blank means none. */
  code: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || null : v ?? null),
    z.string({ error: M.docCodeInvalid }).regex(DOC_CODE_PATTERN, M.docCodeInvalid).nullable(),
  ),
  category: z.enum(DOC_CATEGORIES, { error: choice(D.docCategoryRequired, M.docCategoryInvalid) }),
  audience: z.enum(DOC_AUDIENCES, { error: choice(D.docAudienceRequired, D.docAudienceInvalid) }),
  sort: z.number({ error: D.docSortInvalid }).int(D.docSortInvalid).min(0, D.docSortInvalid).max(DOC_SORT_MAX, D.docSortInvalid).default(0),
  enabled: z.boolean({ error: ADMIN_MSG.enabledInvalid }).default(true),
});
export type DocumentBody = z.input<typeof documentBodySchema>;
export type DocumentInput = z.infer<typeof documentBodySchema>;

/** A row of 文档管理 and the edit page's record. */
export interface DocumentAdminRow {
  id: string;
  code: string | null;
  title: string;
  titleEn: string | null;
  category: DocCategory;
  audience: DocAudience;
  sort: number;
  enabled: boolean;
  /** `filePath` streams it for admins holding file:read and for its uploader. */
  file: FileRef;
  createdAt: IsoDateTime;
  updatedAt: IsoDateTime;
}
