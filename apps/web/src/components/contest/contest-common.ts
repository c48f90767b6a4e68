/**
 * What every area showing a sign-up or preliminary materials needs (docs/api-contest.md):
 * dictionary names for codes, the uploader's value of stored attachments, and downloads.
 * The participant's own calls stay in areas/participant; admin and expert pages read the same
 * records through their own calls and show them with these helpers and the views of this folder.
 */
import { useQuery } from '@tanstack/react-query';
import type { ContestAttachment, DictLabels, DictOptions } from '@contest/shared';
import type { UploadValueItem } from '../../lib/upload';
import { api, dataOf } from '../../lib/api';

export const DICT_QUERY_KEYS = {
  module: (module: string) => ['dic', 'module', module] as const,
  labels: (types: readonly string[]) => ['dic', 'label', ...types] as const,
};

/** The enabled options of one form's dictionaries (selects). */
export const fetchDictModule = (module: string) => dataOf(api.get<DictOptions>('/dic/module', { params: { module } }));

/** code -> name per type, disabled items included (for showing stored codes). */
export const fetchDictLabels = (types: readonly string[]) =>
  dataOf(api.get<DictLabels>('/dic/label', { params: { types } }));

/** The names of the given dictionary types; codes show as they are until (or if never) loaded. */
export function useDictLabels(types: readonly string[], enabled = true) {
  return useQuery({
    queryKey: DICT_QUERY_KEYS.labels(types),
    queryFn: () => fetchDictLabels(types),
    enabled: enabled && types.length > 0,
    // Dictionaries change rarely; a page opened twice need not ask again.
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
 * Saves a downloaded file under the name the server gave (spec section 3: Content-Disposition).
 * The shared client sends the token of the page's realm (the URL decides: /admin pages send the
 * AdminToken, /expert pages the ExpertToken, the others the participant's AccessToken).
 */
export async function downloadAttachment(file: Pick<ContestAttachment, 'uniqueNo' | 'name'>): Promise<void> {
  const result = await api.get(`/attachment/stream/${encodeURIComponent(file.uniqueNo)}`, { responseType: 'blob' });
  if (!('blob' in result)) return;
  const url = URL.createObjectURL(result.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = result.fileName ?? file.name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked a moment later: some browsers start the download asynchronously.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
