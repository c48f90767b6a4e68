import { z } from 'zod';
import { normalizeLocale } from '../locale.js';
import type { Locale } from '../enums.js';
import { optionalQuery, type IsoDateTime } from './common.js';
import { ADMIN_MSG as M } from './messages.js';
import { DICT_MSG } from './dictionary-messages.js';

export { DICT_MSG } from './dictionary-messages.js';
export const DICT_NAME_EN_MAX = 100;

export const DICT_TYPE_CODE_PATTERN = /^[A-Z][A-Z0-9_]{1,39}$/;
export const DICT_ITEM_CODE_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;
/** At most this many types in one /dic/public or /dic/label call. */
export const DICT_TYPES_PER_CALL = 20;

/**
 * GET /dic/module?module=…: the dictionaries one form needs, in one call. The names are the
 * portal's modules (attachment origins where they match).
 */
export const DICT_MODULES = {
  TEAM: ['ORG_TYPE', 'TRACK', 'REGION', 'MEMBER_ROLE', 'PROFESSIONAL_TITLE'],
  PRELIM: ['TRACK'],
  EXPERT: ['TRACK', 'PROFESSIONAL_TITLE'],
  FEEDBACK: ['FEEDBACK_TYPE'],
  DOC: ['DOC_CATEGORY'],
} as const satisfies Record<string, readonly string[]>;
export type DictModule = keyof typeof DICT_MODULES;
export const DICT_MODULE_NAMES = Object.keys(DICT_MODULES) as DictModule[];

const sortSchema = z.coerce.number({ error: M.sortInvalid }).int(M.sortInvalid).min(0, M.sortInvalid).max(9999, M.sortInvalid).default(0);
const dictNameSchema = (required: string) => z.string({ error: required }).trim().min(1, required).max(50, M.dictNameTooLong);
/**
 * English name: absent leaves it as it is (on an edit), '' or null clears it. A cleared name is
 * stored as '' rather than NULL, so the start-up seed (which fills only NULL) never brings back a
 * name an admin removed; both read as "no English name" and English pages show `name`.
 */
const dictNameEnSchema = z
  .string({ error: DICT_MSG.dictNameEnTooLong })
  .trim()
  .max(DICT_NAME_EN_MAX, DICT_MSG.dictNameEnTooLong)
  .nullable()
  .optional()
  .transform((v) => (v === null ? '' : v));

/**
 * `lang` of the public reads: `en` answers English names (falling back to the Chinese name where an
 * item has none), `zh-cn` Chinese. Anything else, or nothing, defers to the Accept-Language header.
 */
const langQuery = optionalQuery(z.string().max(35).transform((v): Locale | undefined => normalizeLocale(v) ?? undefined));

// ---- Public reads ----

/** `types=ORG_TYPE,TRACK` (comma-separated); absent means every type. */
export const dictTypesQuerySchema = z.object({
  types: optionalQuery(
    z
      .string()
      .transform((s) => [...new Set(s.split(',').map((t) => t.trim()).filter(Boolean))])
      .refine((list) => list.length <= DICT_TYPES_PER_CALL, M.dictTypesTooMany),
  ),
  lang: langQuery,
});
export type DictTypesQuery = z.infer<typeof dictTypesQuerySchema>;

export const dictModuleQuerySchema = z.object({
  module: z.enum(DICT_MODULE_NAMES as [DictModule, ...DictModule[]], { error: M.dictModuleInvalid }),
  lang: langQuery,
});
export type DictModuleQuery = z.infer<typeof dictModuleQuerySchema>;

/** Option of a select (code = value, name = label, in the asked language). */
export interface DictOption {
  code: string;
  name: string;
}

/** /dic/public and /dic/module: enabled items per type, in order. A requested unknown type maps to []. */
export type DictOptions = Record<string, DictOption[]>;

/** /dic/label: code -> name per type, disabled items included, so old records still read well. */
export type DictLabels = Record<string, Record<string, string>>;

// ---- Admin (/admin/system/dataField) ----

export const dictTypeCreateSchema = z.object({
  code: z.string({ error: M.dictTypeCodeRequired }).trim().min(1, M.dictTypeCodeRequired).regex(DICT_TYPE_CODE_PATTERN, M.dictTypeCodeFormat),
  name: dictNameSchema(M.dictTypeNameRequired),
  nameEn: dictNameEnSchema,
  sort: sortSchema,
});
export type DictTypeCreateInput = z.infer<typeof dictTypeCreateSchema>;

export const dictTypeUpdateSchema = z.object({
  name: dictNameSchema(M.dictTypeNameRequired),
  nameEn: dictNameEnSchema,
  sort: sortSchema,
});
export type DictTypeUpdateInput = z.infer<typeof dictTypeUpdateSchema>;

export const dictTypeParamsSchema = z.object({
  code: z.string().regex(DICT_TYPE_CODE_PATTERN, M.dictTypeNotFound),
});

export const dictItemListQuerySchema = z.object({
  typeCode: z.string({ error: M.dictTypeCodeRequired }).trim().min(1, M.dictTypeCodeRequired).max(40, M.dictTypeNotFound),
});
export type DictItemListQuery = z.infer<typeof dictItemListQuerySchema>;

export const dictItemCreateSchema = z.object({
  typeCode: z.string({ error: M.dictTypeCodeRequired }).trim().min(1, M.dictTypeCodeRequired).max(40, M.dictTypeNotFound),
  code: z.string({ error: M.dictItemCodeRequired }).trim().min(1, M.dictItemCodeRequired).regex(DICT_ITEM_CODE_PATTERN, M.dictItemCodeFormat),
  name: dictNameSchema(M.dictItemNameRequired),
  nameEn: dictNameEnSchema,
  sort: sortSchema,
  enabled: z.boolean({ error: M.enabledInvalid }).default(true),
});
export type DictItemCreateInput = z.infer<typeof dictItemCreateSchema>;

/** The item code is fixed once created: stored records refer to it. */
export const dictItemUpdateSchema = z.object({
  name: dictNameSchema(M.dictItemNameRequired),
  nameEn: dictNameEnSchema,
  sort: sortSchema,
  enabled: z.boolean({ error: M.enabledInvalid }),
});
export type DictItemUpdateInput = z.infer<typeof dictItemUpdateSchema>;

export interface DictType {
  code: string;
  name: string;
  /** null when it has none (English pages then show `name`). */
  nameEn: string | null;
  sort: number;
  itemCount: number;
  /** Seeded types cannot be deleted: the portal's forms read them. */
  builtin: boolean;
  createdAt: IsoDateTime;
  updatedAt: IsoDateTime;
}

export interface DictItem {
  id: string;
  typeCode: string;
  code: string;
  name: string;
  /** null when it has none (English pages then show `name`). */
  nameEn: string | null;
  sort: number;
  enabled: boolean;
  createdAt: IsoDateTime;
  updatedAt: IsoDateTime;
}
