/**
 * Issued documents (docs/certificates.md, "Downloads", "Verification"): the console's list, one
 * PDF and a round's zip (permission-checked, each download recorded); participants' and experts'
 * own documents; the public verification by serial.
 */
import type { Readable } from 'node:stream';
import {
  CERTIFICATE_KIND_NAMES,
  CERTIFICATE_MSG as M,
  CERTIFICATE_STATUS_NAMES,
  ROUND_NAMES,
  certificateVerifyPath,
  normaliseCertificateSerial,
  type CertificateDocumentQuery,
  type CertificateDocumentRow,
  type CertificateVerification,
  type CertificateZipQuery,
  type MyCertificate,
  type Page,
  type ReviewRound,
} from '@contest/shared';
import { badRequest, notFound } from '../../lib/errors.js';
import { zipStream } from '../../lib/zip-stream.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { safeFileName, toDocumentRow, type CertificatesDeps } from './certificates.common.js';
import type { CertificateRow } from './certificates.repository.js';

export interface PdfDownload {
  stream: Readable;
  fileName: string;
  size: number;
}

export function createDocumentsService(deps: CertificatesDeps) {
  const { db, repo } = deps;

  async function successorsOf(rows: readonly CertificateRow[]): Promise<Map<string, string>> {
    return repo.serialsOf([...new Set(rows.map((r) => r.successorId).filter((id): id is string => id !== null))]);
  }

  const fileNameOf = (row: CertificateRow) => safeFileName(`${CERTIFICATE_KIND_NAMES[row.kind]}-${row.holderName}-${row.serial}.pdf`);

  async function open(row: CertificateRow): Promise<PdfDownload> {
    const stream = await deps.storage.get(row.storageKey);
    if (!stream) throw notFound(M.pdfNotReady);
    return { stream, fileName: fileNameOf(row), size: row.pdfSize };
  }

  async function mine(rows: CertificateRow[], realmPath: string): Promise<MyCertificate[]> {
    const successors = await successorsOf(rows);
    return rows.map((r) => ({
      id: r.id,
      serial: r.serial,
      kind: r.kind,
      round: r.round,
      status: r.status,
      holderName: r.holderName,
      projectName: r.projectName,
      award: r.award,
      resultVersion: r.resultVersion,
      issuedAt: r.issuedAt.toISOString(),
      successorSerial: r.successorId ? (successors.get(r.successorId) ?? null) : null,
      downloadPath: `/api${realmPath}/${r.id}/pdf`,
      verifyPath: certificateVerifyPath(r.serial),
    }));
  }

  return {
    async list(q: CertificateDocumentQuery): Promise<Page<CertificateDocumentRow>> {
      const { rows, total } = await repo.documentPage(q);
      const successors = await successorsOf(rows);
      return { list: rows.map((r) => toDocumentRow(r, successors)), page: q.page, size: q.size, total };
    },

    /** One PDF for the console; the download is recorded. */
    async adminPdf(actor: OperationActor, id: string): Promise<PdfDownload> {
      const row = await repo.doc(id);
      if (!row) throw notFound(M.documentNotFound);
      const file = await open(row);
      await db.transaction((tx) =>
        recordOperation(tx, actor, {
          action: 'certificate:download',
          targetType: 'certificate',
          targetId: row.id,
          summary: `下载${CERTIFICATE_KIND_NAMES[row.kind]}「${row.holderName}」（编号 ${row.serial}，${CERTIFICATE_STATUS_NAMES[row.status]}）`,
        }),
      );
      return file;
    },

    /** Every document of a round (VALID unless asked otherwise) as one zip, streamed; the download is recorded. */
    async zip(actor: OperationActor, round: ReviewRound, q: CertificateZipQuery): Promise<{ stream: Readable; fileName: string }> {
      const status = q.status ?? 'VALID';
      const rows = await repo.roundDocs(round, { status, kind: q.kind });
      if (rows.length === 0) throw badRequest(M.nothingToDownload, { reason: 'NOTHING' });
      const entries = rows.map((r) => ({
        name: `${safeFileName(CERTIFICATE_KIND_NAMES[r.kind])}/${fileNameOf(r)}`,
        size: r.pdfSize,
        open: async () => {
          const stream = await deps.storage.get(r.storageKey);
          if (!stream) throw new Error(`certificate ${r.serial}: stored PDF missing`);
          return stream;
        },
      }));
      await db.transaction((tx) =>
        recordOperation(tx, actor, {
          action: 'certificate:download',
          targetType: 'certificate_round',
          targetId: round,
          summary: `打包下载${ROUND_NAMES[round]}证书 ${rows.length} 份（${CERTIFICATE_STATUS_NAMES[status]}${q.kind ? `，${CERTIFICATE_KIND_NAMES[q.kind]}` : ''}）`,
        }),
      );
      return { stream: zipStream(entries, deps.now()), fileName: `${ROUND_NAMES[round]}证书-${CERTIFICATE_STATUS_NAMES[status]}.zip` };
    },

    /** A participant's documents: those of the teams they own. */
    async participantList(accountId: string): Promise<MyCertificate[]> {
      return mine(await repo.docsOfTeams(await repo.ownedTeamIds(accountId)), '/certificates');
    },

    /** Another team's document answers 404, as one that does not exist. */
    async participantPdf(accountId: string, id: string): Promise<PdfDownload> {
      const row = await repo.doc(id);
      const teams = row?.teamId ? await repo.ownedTeamIds(accountId) : [];
      if (!row || !row.teamId || !teams.includes(row.teamId)) throw notFound(M.documentNotFound);
      return open(row);
    },

    async expertList(accountId: string): Promise<MyCertificate[]> {
      return mine(await repo.docsOfExpert(accountId), '/expert/certificates');
    },

    async expertPdf(accountId: string, id: string): Promise<PdfDownload> {
      const row = await repo.doc(id);
      if (!row || row.expertId !== accountId) throw notFound(M.documentNotFound);
      return open(row);
    },

    /** Public: what a serial certifies. No phone, e-mail or ID number is ever part of it. */
    async verify(serial: string): Promise<CertificateVerification> {
      const canonical = normaliseCertificateSerial(serial);
      if (!canonical) throw badRequest(M.serialInvalid, { field: 'serial', reason: 'SERIAL_INVALID' });
      const row = await repo.docBySerial(canonical);
      if (!row) throw notFound(M.serialUnknown);
      const successors = await successorsOf([row]);
      const settings = await deps.settingsOf();
      return {
        serial: row.serial,
        status: row.status,
        kind: row.kind,
        holderName: row.holderName,
        holderType: row.holderType,
        projectName: row.projectName,
        award: row.award,
        contestName: settings.name,
        round: row.round,
        resultVersion: row.resultVersion,
        issuedAt: row.issuedAt.toISOString(),
        successorSerial: row.successorId ? (successors.get(row.successorId) ?? null) : null,
      };
    },
  };
}
export type DocumentsService = ReturnType<typeof createDocumentsService>;
