/**
 * What every area showing a sign-up or preliminary materials needs (docs/api-contest.md):
 * dictionary names for codes, the uploader's value of stored attachments, and downloads.
 * The participant's own calls stay in areas/participant; admin and expert pages read the same
 * records through their own calls and show them with these helpers and the views of this folder.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type ContestAttachment, type DictLabels, type DictOptions, type Locale } from '@contest/shared';
import type { UploadValueItem } from '../../lib/upload';
import { api, dataOf } from '../../lib/api';
import { downloadAttachmentFile } from '../../lib/download-attachment';
import { dictLang } from '../../lib/dict-lang';

export { dictLang } from '../../lib/dict-lang';

/** Keys carry the language, so switching it fetches the names again. */
export const DICT_QUERY_KEYS = {
  module: (module: string, lang: Locale = dictLang()) => ['dic', 'module', module, lang] as const,
  labels: (types: readonly string[], lang: Locale = dictLang()) => ['dic', 'label', lang, ...types] as const,
};

/** The enabled options of one form's dictionaries (selects), named in `lang` (default: the page's). */
export const fetchDictModule = (module: string, lang: Locale = dictLang()) =>
  dataOf(api.get<DictOptions>('/dic/module', { params: { module, lang } }));

/** code -> name per type, disabled items included (for showing stored codes). */
export const fetchDictLabels = (types: readonly string[], lang: Locale = dictLang()) =>
  dataOf(api.get<DictLabels>('/dic/label', { params: { types, lang } }));

/** The page's language, re-rendering the caller when it changes. */
function useDictLang(): Locale {
  const { i18n: instance } = useTranslation();
  return dictLang(instance.resolvedLanguage ?? instance.language);
}

/** The names of the given dictionary types; codes show as they are until (or if never) loaded. */
export function useDictLabels(types: readonly string[], enabled = true) {
  const lang = useDictLang();
  return useQuery({
    queryKey: DICT_QUERY_KEYS.labels(types, lang),
    queryFn: () => fetchDictLabels(types, lang),
    enabled: enabled && types.length > 0,
    // Dictionaries change rarely; a page opened twice need not ask again.
    staleTime: 5 * 60_000,
  });
}

/** The enabled options of one form's dictionaries, in the page's language. */
export function useDictModule(module: string, enabled = true) {
  const lang = useDictLang();
  return useQuery({
    queryKey: DICT_QUERY_KEYS.module(module, lang),
    queryFn: () => fetchDictModule(module, lang),
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** A dictionary code shown by its name ('--' when empty); disabled items still resolve through /dic/label. */
export function labelOf(labels: DictLabels | undefined, type: string, code: string | null | undefined): string {
  if (!code) return '--';
  return labels?.[type]?.[code] ?? code;
}

/** A stored attachment as the uploader's value. */
export function toUploadValue(file: ContestAttachment | null | undefined): UploadValueItem[] {
  return file ? [{ uid: file.uniqueNo, id: file.uniqueNo, filePath: file.filePath, fileName: file.name, fileSize: file.size }] : [];
}

export function toUploadValues(files: readonly ContestAttachment[] | null | undefined): UploadValueItem[] {
  return (files ?? []).flatMap((file) => toUploadValue(file));
}

/** The uploader's value as the forms send it: the uniqueNo of its first file, null when empty. */
export function fileRefOf(value: readonly UploadValueItem[] | null | undefined): string | null {
  return value?.[0]?.id || null;
}

export function fileRefsOf(value: readonly UploadValueItem[] | null | undefined): string[] {
  return (value ?? []).map((item) => item.id ?? '').filter(Boolean);
}

/**
 * Saves a downloaded file under the name the server gave (its Content-Disposition header).
 * The shared client sends the token of the page's realm (the URL decides: /admin pages send the
 * AdminToken, /expert pages the ExpertToken, the others the participant's AccessToken). Files
 * above 20 MB go through a signed link the browser downloads itself (lib/download-attachment).
 */
export async function downloadAttachment(file: Pick<ContestAttachment, 'uniqueNo' | 'name'> & { size?: number | null }): Promise<void> {
  await downloadAttachmentFile(file);
}
