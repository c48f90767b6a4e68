import { z } from 'zod';
import { PAGE_SIZE_DEFAULT } from '../constants.js';
import { ADMIN_MSG as M } from './messages.js';

/** Largest page a list call serves; the console's size changer never asks for more. */
export const PAGE_SIZE_MAX = 100;

/** Search forms send empty fields as `name=`: an empty value means "no filter". */
export const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : typeof value === 'string' ? value.trim() : value;

export const optionalQuery = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

/** Paging (docs/rules/screens.md, "Shared widgets"): `page` (from 1) and `size` (default 10). Answers are `Page<T>` (`list, page, size, total`). */
export const pageQueryFields = {
  page: z.preprocess(blankToUndefined, z.coerce.number({ error: M.pageInvalid }).int(M.pageInvalid).min(1, M.pageInvalid).max(1_000_000, M.pageInvalid).default(1)),
  size: z.preprocess(
    blankToUndefined,
    z.coerce.number({ error: M.sizeInvalid }).int(M.sizeInvalid).min(1, M.sizeInvalid).max(PAGE_SIZE_MAX, M.sizeInvalid).default(PAGE_SIZE_DEFAULT),
  ),
};
export const pageQuerySchema = z.object(pageQueryFields);
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const keywordQuery = optionalQuery(z.string().max(50, M.keywordTooLong));

/** `true` / `false` in a query string. */
export const enabledQuery = optionalQuery(
  z.enum(['true', 'false'], { error: M.enabledInvalid }).transform((v) => v === 'true'),
);

/** Date range (docs/rules/screens.md, "Dates, sizes, toasts"): YYYY-MM-DD (Beijing days). */
export const DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** Datetime range (docs/rules/screens.md, "Dates, sizes, toasts"): YYYY-MM-DD HH:mm:ss (Beijing time); a bare date is accepted too. */
export const DATE_TIME_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])( ([01]\d|2[0-3]):[0-5]\d:[0-5]\d)?$/;

/** Month picker (docs/rules/screens.md, "Dates, sizes, toasts"): YYYY-MM (a Beijing calendar month). */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
export const monthQuery = optionalQuery(z.string().regex(MONTH_PATTERN, M.monthInvalid));

export const dateQuery = optionalQuery(z.string().regex(DATE_PATTERN, M.dateInvalid));
export const dateTimeQuery = optionalQuery(z.string().regex(DATE_TIME_PATTERN, M.dateTimeInvalid));

/** Both ends are inclusive; `from` after `to` is refused. Strings of one format compare in time order. */
export const rangeIsOrdered = (v: { from?: string | undefined; to?: string | undefined }) =>
  !v.from || !v.to || v.from.slice(0, 10) <= v.to.slice(0, 10) && (v.from.length === 10 || v.to.length === 10 || v.from <= v.to);

export const uuidSchema = z.string({ error: M.idInvalid }).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, M.idInvalid);
export const idParamsSchema = z.object({ id: uuidSchema });
export type IdParams = z.infer<typeof idParamsSchema>;

export const enabledBodySchema = z.object({ enabled: z.boolean({ error: M.enabledInvalid }) });
export type EnabledBody = z.infer<typeof enabledBodySchema>;

/** A generated password, returned once by create and reset calls; the server keeps only its hash. */
export interface GeneratedPassword {
  password: string;
}

/** Times travel as ISO 8601 strings (UTC, `Z`). */
export type IsoDateTime = string;

/** GET /admin/track: a page view or UI event of the console (docs/api-admin.md, "Console tracking"). */
export const trackQuerySchema = z.object({
  path: optionalQuery(z.string().max(300)),
  event: optionalQuery(z.string().max(64)),
});
export type TrackQuery = z.infer<typeof trackQuerySchema>;
