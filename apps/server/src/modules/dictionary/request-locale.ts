import type { FastifyRequest } from 'fastify';
import { resolveLocale, type Locale } from '@contest/shared';

/**
 * The languages of an Accept-Language header, most preferred first (`q` weights honoured, `q=0`
 * dropped, ties kept in the header's order).
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((l) => l.tag && l.tag !== '*' && Number.isFinite(l.q) && l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((l) => l.tag);
}

/**
 * The language a public read answers in: the `lang` query parameter (the web app sends the page's
 * language), else the Accept-Language header, else Chinese. A browser always sends its own
 * languages, so callers in the web app pass `lang` to follow the page rather than the browser.
 */
export function localeOf(request: FastifyRequest, lang: Locale | undefined): Locale {
  const header = request.headers['accept-language'];
  return resolveLocale({ query: lang ?? null, browser: acceptedLanguages(Array.isArray(header) ? header.join(',') : header) });
}

/** The name an English page shows: the English one, or the Chinese one when there is none. */
export const localName = (locale: Locale, row: { name: string; nameEn: string | null }): string =>
  locale === 'en' && row.nameEn ? row.nameEn : row.name;
