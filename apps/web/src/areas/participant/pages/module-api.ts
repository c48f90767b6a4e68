/** Data documents of /module (docs/api-content.md): listed and fetched with the participant's token. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { API_BASE, type DocumentItem, type Locale } from '@contest/shared';
import { dictLang } from '../../../components/contest/contest-common';
import type { BlobResult } from '../../../api';
import { api } from '../../../lib/api';
import { saveBlob } from '../../../lib/save-blob';
export { saveBlob };

/** Titled in `lang` (English titles where written); sent always, or the browser's language would decide. */
export async function fetchDataDocuments(lang: Locale = dictLang()): Promise<DocumentItem[]> {
  return (await api.get<DocumentItem[]>('/documents', { params: { category: 'DATA', lang } })).data;
}

export function useDataDocuments() {
  const { i18n } = useTranslation();
  const lang = dictLang(i18n.resolvedLanguage ?? i18n.language);
  return useQuery({ queryKey: ['documents', 'DATA', 'signed-in', lang], queryFn: () => fetchDataDocuments(lang) });
}

function apiPath(path: string): string {
  return path.startsWith(`${API_BASE}/`) ? path.slice(API_BASE.length) : path;
}

/**
 * The document's own download (it checks the audience, so APPROVED documents work whatever the
 * file's storage flag). `preview` asks for images and PDFs inline.
 */
export async function fetchDocumentFile(doc: Pick<DocumentItem, 'downloadPath'>, opts: { preview?: boolean; signal?: AbortSignal } = {}): Promise<BlobResult | null> {
  const result = await api.get(apiPath(doc.downloadPath), {
    responseType: 'blob',
    params: opts.preview ? { preview: 1 } : undefined,
    signal: opts.signal,
  });
  return 'blob' in result ? result : null;
}

