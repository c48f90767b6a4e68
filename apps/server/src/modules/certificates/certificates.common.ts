/**
 * What the certificate services share (docs/certificates.md): the module's dependencies, the
 * printed data of a holder, template choice, backgrounds and the answer shapes.
 */
import type { Readable } from 'node:stream';
import {
  CERTIFICATE_BACKGROUND_MAX_BYTES,
  CERTIFICATE_MSG as M,
  ROUND_NAMES,
  certificateVerifyPath,
  type CertificateDocumentRow,
  type CertificateKind,
  type CertificateTemplateVersion,
  type ContestSettings,
  type ReviewRound,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import type { CertificateFieldJson } from '../../db/schema/certificates.js';
import { badRequest } from '../../lib/errors.js';
import type { Storage } from '../../lib/storage/storage.js';
import type { CertificatePrintData } from './certificate-pdf.js';
import type { CertificateRow, CertificatesRepository, TemplateRow, TemplateVersionRow } from './certificates.repository.js';

export interface CertificatesDeps {
  db: Db;
  repo: CertificatesRepository;
  storage: Storage;
  now: () => Date;
  settingsOf(tx?: Db): Promise<ContestSettings>;
  /** The origin users reach (PUBLIC_URL, else http://localhost:PORT): the QR codes point there. */
  publicOrigin: string;
  /** Wakes the job runner after a commit that queued an issuing job. */
  kickJobs(): void;
  /** Wakes the notice outbox after a commit that queued e-mail. */
  afterCommit(): void;
}

export const ISSUE_JOB = 'certificates.issue';
export const issueDedupeKey = (round: ReviewRound) => `${ISSUE_JOB}:${round}`;

/** 2026年3月5日, in Beijing. */
export function chineseDate(at: Date): string {
  const d = new Date(at.getTime() + 8 * 3600_000);
  return `${d.getUTCFullYear()}年${d.getUTCMonth() + 1}月${d.getUTCDate()}日`;
}
export const beijingYear = (at: Date) => new Date(at.getTime() + 8 * 3600_000).getUTCFullYear();

export const verifyUrlOf = (origin: string, serial: string) => `${origin.replace(/\/+$/, '')}${certificateVerifyPath(serial)}`;

/** Leader then members, by name, joined by 、. */
export function memberNames(team: { leader: { name?: string } | null; members: { name?: string }[] } | null): string {
  if (!team) return '';
  const names = [team.leader?.name, ...team.members.map((m) => m.name)].map((n) => n?.trim() ?? '').filter(Boolean);
  return [...new Set(names)].join('、');
}

/** What a holder's document prints, before the serial and date are known. */
export interface HolderPrint {
  team: string;
  project: string;
  organisation: string;
  members: string;
  award: string;
  expertName: string;
}

export function printData(holder: HolderPrint, settings: ContestSettings, round: ReviewRound, issuedAt: Date, serial: string, origin: string): CertificatePrintData {
  return {
    ...holder,
    contest: settings.name,
    round: ROUND_NAMES[round],
    date: chineseDate(issuedAt),
    serial,
    verifyUrl: verifyUrlOf(origin, serial),
  };
}

/** What PROMOTION documents print as their award. */
export const PROMOTION_AWARD = '晋级决赛';

// ------------------------------------------------------------------ template choice

export type ResolvedTemplate = { template: TemplateRow; version: TemplateVersionRow };

/**
 * The template a document of `kind` (and, for AWARD, `awardName`) is made from, among the
 * candidates: one naming the award level wins over one for every level; two at the same rank
 * or none at all are refused (400, with the kind and level in data).
 */
export function chooseTemplate(candidates: readonly ResolvedTemplate[], kind: CertificateKind, awardName: string | null): ResolvedTemplate {
  const ofKind = candidates.filter((c) => c.template.kind === kind);
  const exact = kind === 'AWARD' && awardName ? ofKind.filter((c) => c.template.awardLevel === awardName) : [];
  const pool = exact.length > 0 ? exact : ofKind.filter((c) => !c.template.awardLevel);
  const data = { reason: pool.length === 0 ? 'TEMPLATE_MISSING' : 'TEMPLATE_AMBIGUOUS', kind, awardLevel: awardName, templateIds: pool.map((c) => c.template.id) };
  if (pool.length === 0) throw badRequest(M.templateMissing, data);
  if (pool.length > 1) throw badRequest(M.templateAmbiguous, data);
  return pool[0]!;
}

// ------------------------------------------------------------------ backgrounds

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg']);

/** The attachment named as a background, checked: an upload of origin CERT, PNG or JPEG, within the size limit. */
export async function backgroundAttachment(deps: Pick<CertificatesDeps, 'repo'>, tx: Db, uniqueNo: string) {
  const row = await deps.repo.attachmentByUniqueNo(tx, uniqueNo);
  if (!row || row.origin !== 'CERT') throw badRequest(M.backgroundNotFound, { field: 'background', reason: 'BACKGROUND_NOT_FOUND' });
  if (!IMAGE_TYPES.has(row.mimeType)) throw badRequest(M.backgroundTypeInvalid, { field: 'background', reason: 'BACKGROUND_TYPE' });
  if (row.size > CERTIFICATE_BACKGROUND_MAX_BYTES) throw badRequest(M.backgroundTooLarge, { field: 'background', reason: 'BACKGROUND_TOO_LARGE' });
  return row;
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** The background's bytes (null: none), read from the store. Backgrounds are at most 10 MB. */
export async function backgroundBytes(deps: Pick<CertificatesDeps, 'repo' | 'storage'>, tx: Db, backgroundId: string | null): Promise<Buffer | null> {
  if (!backgroundId) return null;
  const row = await deps.repo.attachmentById(tx, backgroundId);
  if (!row) return null;
  const stream = await deps.storage.get(row.storageKey);
  return stream ? readAll(stream) : null;
}

// ------------------------------------------------------------------ answers

export function toVersion(v: TemplateVersionRow, background: { uniqueNo: string; originalName: string; size: number } | null): CertificateTemplateVersion {
  return {
    templateId: v.templateId,
    version: v.version,
    name: v.name,
    kind: v.kind,
    awardLevel: v.awardLevel,
    pageSize: v.pageSize,
    orientation: v.orientation,
    background: background
      ? { uniqueNo: background.uniqueNo, name: background.originalName, size: background.size, filePath: `/api/attachment/stream/${background.uniqueNo}` }
      : null,
    // Stored by the schema's rules (keys and alignments of the shared enums).
    fields: v.fields.map((f: CertificateFieldJson) => ({ ...f, text: f.text ?? null })) as CertificateTemplateVersion['fields'],
    createdAt: v.createdAt.toISOString(),
    createdBy: v.createdByName,
  };
}

export function toDocumentRow(row: CertificateRow, successors: Map<string, string>): CertificateDocumentRow {
  return {
    id: row.id,
    serial: row.serial,
    kind: row.kind,
    round: row.round,
    status: row.status,
    holderName: row.holderName,
    projectId: row.prelimId,
    projectName: row.projectName,
    award: row.award,
    resultVersion: row.resultVersion,
    templateId: row.templateId,
    templateVersion: row.templateVersion,
    issuedAt: row.issuedAt.toISOString(),
    successorSerial: row.successorId ? (successors.get(row.successorId) ?? null) : null,
    endedAt: row.endedAt ? row.endedAt.toISOString() : null,
  };
}

/** A file name without path separators or characters file systems refuse. */
export const safeFileName = (name: string) => name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').slice(0, 120);
