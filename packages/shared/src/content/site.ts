import { z } from 'zod';
import type { IsoDateTime } from '../admin/common.js';
import { CONTENT_MSG as M } from './messages.js';

/**
 * Editable blocks of the public site. `sign-guide` is the /sign-guide page; the `home-*` blocks
 * make up the home page. Unknown keys are 404; a known key never edited answers empty.
 */
export const SITE_CONTENT_KEYS = ['home-intro', 'home-tracks', 'home-schedule', 'home-organisers', 'home-contact', 'sign-guide'] as const;
export type SiteContentKey = (typeof SITE_CONTENT_KEYS)[number];

export const siteContentParamsSchema = z.object({ key: z.enum(SITE_CONTENT_KEYS, { error: M.siteKeyInvalid }) });

/** GET /site/content?keys=a,b: several blocks in one call (the home page). */
export const siteContentBatchQuerySchema = z.object({
  keys: z
    .string({ error: M.siteKeyInvalid })
    .transform((v) => [...new Set(v.split(',').map((k) => k.trim()).filter(Boolean))])
    .pipe(z.array(z.enum(SITE_CONTENT_KEYS, { error: M.siteKeyInvalid })).min(1, M.siteKeyInvalid)),
});

export interface SiteBlock {
  key: SiteContentKey;
  title: string;
  /** Allow-listed HTML. */
  body: string;
  updatedAt: IsoDateTime | null;
}
