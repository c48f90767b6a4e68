/**
 * Calls of the sign-up and preliminary-materials pages (docs/api-contest.md). Shapes and
 * rules come from @contest/shared, written with the server; this file names paths, query
 * keys, and converts between the answers and the forms' upload values.
 */
import type {
  ContestAttachment,
  DictLabels,
  DictOptions,
  PrelimBrief,
  PrelimDetail,
  PrelimFormInput,
  TeamBrief,
  TeamDetail,
  TeamFormInput,
} from '@contest/shared';
import type { UploadValueItem } from '../../../components/upload';
import { api } from '../../../lib/api';

export const CONTEST_QUERY_KEYS = {
  team: ['contest', 'team'] as const,
  teamBrief: ['contest', 'team-brief'] as const,
  prelim: ['contest', 'prelim'] as const,
  prelimBrief: ['contest', 'prelim-brief'] as const,
  dictModule: (module: string) => ['dic', 'module', module] as const,
  dictLabels: (types: readonly string[]) => ['dic', 'label', ...types] as const,
};

const data = async <T>(call: Promise<{ data: T }>): Promise<T> => (await call).data;

// The form calls are silent: the page shows a refusal above the form and under its field,
// which reads better than a toast that disappears while the user looks for the mistake.
const SILENT = { silent: true } as const;

export const fetchTeamBrief = () => data(api.get<TeamBrief>('/team/my-brief'));
export const fetchMyTeam = () => data(api.get<TeamDetail | null>('/team/my'));
export const saveTeamDraft = (body: TeamFormInput) => data(api.put<TeamDetail>('/team/my', body, SILENT));
export const submitTeam = (body: TeamFormInput) => data(api.post<TeamDetail>('/team/my/submit', body, SILENT));

export const fetchPrelimBrief = () => data(api.get<PrelimBrief>('/prelim-doc/my-brief'));
export const fetchMyPrelim = () => data(api.get<PrelimDetail | null>('/prelim-doc/my'));
export const savePrelimDraft = (body: PrelimFormInput) => data(api.put<PrelimDetail>('/prelim-doc/my', body, SILENT));
export const submitPrelim = (body: PrelimFormInput) => data(api.post<PrelimDetail>('/prelim-doc/my/submit', body, SILENT));

export const fetchDictModule = (module: string) => data(api.get<DictOptions>('/dic/module', { params: { module } }));
export const fetchDictLabels = (types: readonly string[]) =>
  data(api.get<DictLabels>('/dic/label', { params: { types } }));

/** A dictionary code shown by its name ('--' when empty); disabled items still resolve through /dic/label. */
export function labelOf(labels: DictLabels | undefined, type: string, code: string | null | undefined): string {
  if (!code) return '--';
  return labels?.[type]?.[code] ?? code;
}

/** Where the commitment-letter template downloads from (a public document found by code). */
export const COMMITMENT_TEMPLATE_CODE = 'COMMITMENT_LETTER';
export const templateUrl = (code: string) => `/api/template/public?code=${encodeURIComponent(code)}`;

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

/** Saves a downloaded file under the name the server gave (spec section 3: Content-Disposition). */
export async function downloadAttachment(file: ContestAttachment): Promise<void> {
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
