/** Data documents of /module (docs/api-content.md): listed and fetched with the participant's token. */
import { useQuery } from '@tanstack/react-query';
import { API_BASE, type DocumentItem } from '@contest/shared';
import type { BlobResult } from '../../../api';
import { api } from '../../../lib/api';
import { saveBlob } from '../../../lib/save-blob';
export { saveBlob };

export async function fetchDataDocuments(): Promise<DocumentItem[]> {
  return (await api.get<DocumentItem[]>('/documents', { params: { category: 'DATA' } })).data;
}

export function useDataDocuments() {
  return useQuery({ queryKey: ['documents', 'DATA', 'signed-in'], queryFn: fetchDataDocuments });
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

