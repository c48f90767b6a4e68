import { z } from 'zod';
import type { IsoDateTime } from '../admin/common.js';
import { DOCUMENT_MSG as D } from './document-messages.js';
import { contentLangQuery } from './documents.js';
import { CONTENT_MSG as M } from './messages.js';

/**
 * Editable blocks of the public site. `sign-guide` is the /sign-guide page; the `home-*` blocks
 * make up the home page. Unknown keys are 404; a known key never edited answers empty.
 */
export const SITE_CONTENT_KEYS = ['home-intro', 'home-tracks', 'home-schedule', 'home-organisers', 'home-contact', 'sign-guide'] as const;
export type SiteContentKey = (typeof SITE_CONTENT_KEYS)[number];

export const siteContentParamsSchema = z.object({ key: z.enum(SITE_CONTENT_KEYS, { error: M.siteKeyInvalid }) });

/** GET /site/content/{key}?lang=en: see `contentLangQuery`. */
export const siteContentQuerySchema = z.object({ lang: contentLangQuery });

/** GET /site/content?keys=a,b: several blocks in one call (the home page). */
export const siteContentBatchQuerySchema = z.object({
  keys: z
    .string({ error: M.siteKeyInvalid })
    .transform((v) => [...new Set(v.split(',').map((k) => k.trim()).filter(Boolean))])
    .pipe(z.array(z.enum(SITE_CONTENT_KEYS, { error: M.siteKeyInvalid })).min(1, M.siteKeyInvalid)),
  lang: contentLangQuery,
});

export interface SiteBlock {
  key: SiteContentKey;
  /** Title and body in the asked language: on English pages the English ones where written, else the Chinese. */
  title: string;
  /** Allow-listed HTML. */
  body: string;
  updatedAt: IsoDateTime | null;
}

// ---- Editing the blocks (内容管理) ----

export const SITE_TITLE_MAX = 100;
export const SITE_BODY_MAX = 100_000;

/** Which page shows each block, for the console (Chinese; the console translates by key). */
export const SITE_CONTENT_PAGES: Record<SiteContentKey, '/' | '/sign-guide'> = {
  'home-intro': '/',
  'home-tracks': '/',
  'home-schedule': '/',
  'home-organisers': '/',
  'home-contact': '/',
  'sign-guide': '/sign-guide',
};

/** PUT /admin/site-content/{key}: the key is checked by the service (an unknown key is 404). */
export const siteBlockKeyParamsSchema = z.object({ key: z.string().max(64) });

/** Empty or blank English texts mean "none": English pages then show the Chinese. */
const blankToNull = (v: string | null | undefined) => (v && v.trim() ? v : null);

export const siteBlockBodySchema = z.object({
  title: z.string({ error: D.siteFieldInvalid }).trim().max(SITE_TITLE_MAX, D.siteTitleTooLong).default(''),
  /** HTML; the server keeps only the allow-listed part. */
  body: z.string({ error: D.siteFieldInvalid }).max(SITE_BODY_MAX, D.siteBodyTooLong).default(''),
  titleEn: z.string({ error: D.siteFieldInvalid }).trim().max(SITE_TITLE_MAX, D.siteTitleEnTooLong).nullish().transform(blankToNull),
  bodyEn: z.string({ error: D.siteFieldInvalid }).max(SITE_BODY_MAX, D.siteBodyEnTooLong).nullish().transform(blankToNull),
});
export type SiteBlockBody = z.input<typeof siteBlockBodySchema>;
export type SiteBlockInput = z.infer<typeof siteBlockBodySchema>;

/** GET /admin/site-content: every known block, written or not, in SITE_CONTENT_KEYS order. */
export interface SiteBlockAdmin {
  key: SiteContentKey;
  title: string;
  body: string;
  titleEn: string | null;
  bodyEn: string | null;
  /** Null for a block nobody wrote yet. */
  updatedAt: IsoDateTime | null;
  /** Name (else username) of the last editor; null for seeded blocks. */
  updatedBy: string | null;
}
