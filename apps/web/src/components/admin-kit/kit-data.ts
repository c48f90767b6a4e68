/** Data the kit's widgets read for themselves: dictionary options of declared selects, dates. */
import { createElement, Fragment, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type DictOptions, type Locale } from '@contest/shared';
import { api } from '../../lib/api';
import { beijingTime, beijingTimeLabel } from '../../lib/beijing-time';
import { i18n } from '../../i18n';
import { dictLang } from '../contest/contest-common';

export interface KitOption {
  value: string;
  label: string;
}

export const KIT_QUERY_KEYS = {
  // The language is part of the key: switching it fetches the names again.
  dictPublic: (types: readonly string[], lang: Locale = dictLang()) => ['dic', 'public', lang, ...types] as const,
};

/** Enabled items of the given dictionary types, in their order (GET /dic/public?types=A,B). */
export async function fetchDictPublic(types: readonly string[], lang: Locale = dictLang()): Promise<DictOptions> {
  return (await api.get<DictOptions>('/dic/public', { params: { types, lang } })).data;
}

/** Options of dictionary selects: `{[type]: [{value: code, label: name}]}`, one call for all types. */
export function useDictOptions(types: readonly string[]): Record<string, KitOption[]> {
  const sorted = [...new Set(types)].sort();
  const { i18n } = useTranslation();
  const lang = dictLang(i18n.resolvedLanguage ?? i18n.language);
  const { data } = useQuery({
    queryKey: KIT_QUERY_KEYS.dictPublic(sorted, lang),
    queryFn: () => fetchDictPublic(sorted, lang),
    enabled: sorted.length > 0,
    // Dictionaries change rarely; a page opened twice need not ask again.
    staleTime: 5 * 60_000,
  });
  const out: Record<string, KitOption[]> = {};
  for (const type of sorted) out[type] = (data?.[type] ?? []).map((item) => ({ value: item.code, label: item.name }));
  return out;
}

/** Answers carry ISO times; the console shows them in Beijing time whatever the device's zone (docs/rules/screens.md, "Dates, sizes, toasts"); null when empty. */
export function formatDateTime(value: string | null | undefined): string | null {
  return beijingTime(value) || null;
}

/** `formatDateTime` marked as Beijing time (`…（北京时间）` / `… (Beijing time)`), for a time inside a sentence; null when empty. */
export function formatDateTimeLabel(value: string | null | undefined): string | null {
  return beijingTimeLabel(value) || null;
}

/**
 * The title of a time column or the label of a time field, saying the values are Beijing time
 * (`提交时间（北京时间）` / `Submitted (Beijing time)`; docs/decisions.md, "English"): the cells stay
 * bare `YYYY-MM-DD HH:mm:ss`. A title that already says it is kept as it is.
 */
export function beijingTitle(title: ReactNode): ReactNode {
  const suffix = i18n.t('common:beijingTime', { time: '' });
  if (typeof title === 'string') return title.endsWith(suffix.trim()) ? title : i18n.t('common:beijingTime', { time: title });
  if (title === null || title === undefined || title === false || title === '') return title;
  return createElement(Fragment, null, title, suffix);
}

/**
 * A time column's header: the title, and the zone on a line of its own that never breaks
 * (`提交时间` over `（北京时间）`). Inline, the label wrapped inside the word in a narrow column
 * (`提交时间（北京时` / `间）`). Its text is `beijingTitle`'s, so names and searches stay the same.
 */
export function beijingColumnTitle(title: ReactNode): ReactNode {
  const labelled = beijingTitle(title);
  if (typeof title !== 'string' || labelled === title) return labelled;
  const zone = i18n.t('common:beijingTime', { time: '' });
  return createElement('span', { className: 'kit-time-title' }, title, createElement('span', { className: 'kit-time-title__zone' }, zone));
}
