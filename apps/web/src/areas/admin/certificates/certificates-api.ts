/**
 * Calls of 证书模板 and 证书管理 (docs/certificates.md; shapes and the route list in
 * packages/shared/src/certificates/certificates.ts). This file only names paths and query keys.
 */
import type {
  CertificateDocumentRow,
  CertificateIssueBodyInput,
  CertificateIssueStarted,
  CertificateJobView,
  CertificateKind,
  CertificateOverview,
  CertificatePreviewBodyInput,
  CertificatePreviewRecord,
  CertificateTemplateBodyInput,
  CertificateTemplateDetail,
  CertificateTemplateRow,
  CertificateTemplateUpdateBodyInput,
  CertificateTemplateVersion,
  CertificateTemplateVersionRow,
  Page,
  ReviewRound,
  RoundSlug,
} from '@contest/shared';
import type { BlobResult } from '../../../api';
import { api, dataOf } from '../../../lib/api';

export const CERTIFICATE_QUERY_KEYS = {
  all: ['admin', 'certificates'] as const,
  templates: ['admin', 'certificates', 'templates'] as const,
  template: (id: string) => ['admin', 'certificates', 'template', id] as const,
  versions: (id: string) => ['admin', 'certificates', 'template', id, 'versions'] as const,
  records: (kind: CertificateKind, keyword: string) => ['admin', 'certificates', 'records', kind, keyword] as const,
  overview: ['admin', 'certificates', 'overview'] as const,
  job: (id: string) => ['admin', 'certificates', 'job', id] as const,
  documents: (round: ReviewRound) => ['admin', 'certificates', 'documents', round] as const,
};

/** Writes report their refusals on the page (the editor, the issuing panel), not a second time in a toast. */
const SILENT = { silent: true } as const;

const T = '/admin/certificates/templates';

// Templates
export const fetchTemplates = (params: object) => dataOf(api.get<Page<CertificateTemplateRow>>(T, { params }));
export const fetchTemplate = (id: string) => dataOf(api.get<CertificateTemplateDetail>(`${T}/${encodeURIComponent(id)}`, SILENT));
export const createTemplate = (body: CertificateTemplateBodyInput) => dataOf(api.post<CertificateTemplateDetail>(T, body, SILENT));
export const updateTemplate = (id: string, body: CertificateTemplateUpdateBodyInput) =>
  dataOf(api.put<CertificateTemplateDetail>(`${T}/${encodeURIComponent(id)}`, body, SILENT));
export const setTemplateEnabled = (id: string, enabled: boolean) =>
  dataOf(api.put<CertificateTemplateDetail>(`${T}/${encodeURIComponent(id)}/enabled`, { enabled }));
export const fetchVersions = (id: string) => dataOf(api.get<CertificateTemplateVersionRow[]>(`${T}/${encodeURIComponent(id)}/versions`));
export const fetchVersion = (id: string, n: number) =>
  dataOf(api.get<CertificateTemplateVersion>(`${T}/${encodeURIComponent(id)}/versions/${n}`));
export const fetchPreviewRecords = (kind: CertificateKind, keyword: string) =>
  dataOf(api.get<CertificatePreviewRecord[]>('/admin/certificates/preview-records', { params: { kind, ...(keyword ? { keyword } : {}) } }));

/** A PDF answer, or the refusal the client read from a JSON body in the blob. */
async function pdfOf(call: Promise<BlobResult | { data: unknown }>): Promise<Blob> {
  const result = await call;
  if (!('blob' in result)) throw new Error('The preview answered no file');
  return result.blob;
}

/** The draft printed by the server for a real record (or the sample one): a PDF, not stored. */
export const previewDraft = (body: CertificatePreviewBodyInput, signal?: AbortSignal) =>
  pdfOf(api.post(`${T}/preview`, body, { responseType: 'blob', signal, ...SILENT }));
/** A saved version printed for a record. */
export const previewVersion = (id: string, n: number, params: { recordId?: string; round?: ReviewRound }, signal?: AbortSignal) =>
  pdfOf(api.get(`${T}/${encodeURIComponent(id)}/versions/${n}/preview`, { params, responseType: 'blob', signal, ...SILENT }));

// Issuing
export const fetchOverview = () => dataOf(api.get<CertificateOverview>('/admin/certificates/overview'));
export const startIssue = (slug: RoundSlug, body: CertificateIssueBodyInput) =>
  dataOf(api.post<CertificateIssueStarted>(`/admin/certificates/${slug}/issue`, body, SILENT));
export const fetchJob = (jobId: string) => dataOf(api.get<CertificateJobView>(`/admin/certificates/jobs/${encodeURIComponent(jobId)}`));

// Documents
export const fetchDocuments = (params: object) => dataOf(api.get<Page<CertificateDocumentRow>>('/admin/certificates/documents', { params }));
export const documentPdfPath = (id: string) => `/admin/certificates/documents/${encodeURIComponent(id)}/pdf`;
export const zipPath = (slug: RoundSlug) => `/admin/certificates/${slug}/zip`;
