import { z } from 'zod';
import { optionalQuery, type IsoDateTime } from '../admin/common.js';
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

/** GET /documents?category=DATA */
export const documentListQuerySchema = z.object({
  category: optionalQuery(z.enum(DOC_CATEGORIES, { error: M.docCategoryInvalid })),
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
  title: string;
  category: DocCategory;
  audience: DocAudience;
  file: FileRef;
  /** Download that checks the document's audience (works for non-public files too). */
  downloadPath: string;
  updatedAt: IsoDateTime;
}
