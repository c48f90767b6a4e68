import {
  CONTEST_MSG as M,
  CONTEST_NAME_DEFAULT,
  CONTEST_NAME_EN_DEFAULT,
  CONTEST_SETTING_KEYS as KEYS,
  PRELIM_FILE_MAX_BYTES,
  describeContest,
  normalisePhases,
  phaseState,
  type ContestAttachment,
  type ContestPublic,
  type PhaseKey,
  type PrelimDocStatus,
  type PrelimFileKind,
  type StatusHistoryEntry,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { badRequest } from '../../lib/errors.js';
import type { Storage } from '../../lib/storage/storage.js';
import type { AttachmentRow, ContestRepository, HistoryRow } from './contest.repository.js';
import { countPdfCharacters, readPdfContent, UnreadablePdfError, type PdfContent } from './pdf-chars.js';

const STREAM_PATH = '/api/attachment/stream/';
/** What participants see as the actor of an administrator's decision. */
export const STAFF_DISPLAY_NAME = '大赛组委会';

export const toContestAttachment = (row: AttachmentRow): ContestAttachment => ({
  uniqueNo: row.uniqueNo,
  name: row.originalName,
  extension: row.extension,
  size: row.size,
  filePath: `${STREAM_PATH}${row.uniqueNo}`,
});

/**
 * What the sign-up and materials services share: phase windows and caps from the settings,
 * dictionary checks, the participant's attachments, status history and its notices.
 */
export function createContestService({ repo, storage, now = () => new Date() }: { db?: Db; repo: ContestRepository; storage: Storage; now?: () => Date }) {
  async function windows() {
    return normalisePhases(await repo.setting(KEYS.phases));
  }

  return {
    now,

    async publicInfo(): Promise<ContestPublic> {
      const text = (v: unknown, fallback: string) => (typeof v === 'string' && v.trim() ? v : fallback);
      const [name, nameEn] = await Promise.all([repo.setting(KEYS.name), repo.setting(KEYS.nameEn)]);
      return describeContest(text(name, CONTEST_NAME_DEFAULT), await windows(), now(), text(nameEn, CONTEST_NAME_EN_DEFAULT));
    },

    async isOpen(phase: PhaseKey): Promise<boolean> {
      return phaseState((await windows())[phase], now()) === 'OPEN';
    },

    /** 400 with `message` outside the phase's window (docs/rules/admin.md, "Phases"). */
    async assertOpen(phase: PhaseKey, message: string): Promise<void> {
      if (!(await this.isOpen(phase))) throw badRequest(message);
    },

    /** `prelim.maxApplicationChars`: a positive integer, anything else means no cap. */
    async maxApplicationChars(): Promise<number | null> {
      const v = await repo.setting(KEYS.maxApplicationChars);
      return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null;
    },

    async prelimFileMaxBytes(): Promise<Record<PrelimFileKind, number>> {
      const v = await repo.setting(KEYS.prelimFileMaxBytes);
      const out = { ...PRELIM_FILE_MAX_BYTES };
      if (v && typeof v === 'object') {
        for (const kind of Object.keys(out) as PrelimFileKind[]) {
          const n = (v as Record<string, unknown>)[kind];
          if (typeof n === 'number' && Number.isInteger(n) && n > 0) out[kind] = n;
        }
      }
      return out;
    },

    /**
     * Every non-empty code must be an enabled item of its dictionary type; the first that is
     * not is reported with its field's message.
     */
    async checkCodes(checks: Array<{ type: string; code: string; field: string; message: string }>): Promise<void> {
      const byType = new Map<string, string[]>();
      for (const c of checks) if (c.code) byType.set(c.type, [...(byType.get(c.type) ?? []), c.code]);
      const known = new Map<string, Set<string>>();
      for (const [type, codes] of byType) known.set(type, await repo.enabledCodes(type, codes));
      for (const c of checks) {
        if (c.code && !known.get(c.type)?.has(c.code)) throw badRequest(c.message, { field: c.field });
      }
    },

    /**
     * The participant's attachments named by `uniqueNo`. Someone else's file, a file uploaded for
     * another purpose (origin) or an unknown one all get the same answer, so nothing is revealed.
     */
    async ownFiles(ownerId: string, origin: 'TEAM' | 'PRELIM', uniqueNos: readonly string[]): Promise<Map<string, AttachmentRow>> {
      const rows = await repo.attachmentsByUniqueNo(uniqueNos);
      const map = new Map(rows.map((r) => [r.uniqueNo, r]));
      for (const uniqueNo of uniqueNos) {
        const row = map.get(uniqueNo);
        if (!row || row.ownerId !== ownerId || row.origin !== origin) throw badRequest(M.attachmentInvalid);
      }
      return map;
    },

    async filesById(ids: ReadonlyArray<string | null>): Promise<Map<string, ContestAttachment>> {
      const rows = await repo.attachmentsById(ids.filter((id): id is string => id !== null));
      return new Map(rows.map((r) => [r.id, toContestAttachment(r)]));
    },

    /** Text and metadata of the stored PDF of this attachment id; null when it is missing or unreadable. */
    async pdfContent(attachmentId: string, maxBytes: number): Promise<PdfContent | null> {
      const [row] = await repo.attachmentsById([attachmentId]);
      const stream = row ? await storage.get(row.storageKey) : null;
      if (!stream) return null;
      try {
        return await readPdfContent(stream, maxBytes);
      } catch (err) {
        if (err instanceof UnreadablePdfError) return null;
        throw err;
      }
    },

    /** Counted characters of a stored PDF; null when it cannot be read as one. */
    async countPdf(row: AttachmentRow, maxBytes: number): Promise<number | null> {
      const stream = await storage.get(row.storageKey);
      if (!stream) return null;
      try {
        return await countPdfCharacters(stream, maxBytes);
      } catch (err) {
        if (err instanceof UnreadablePdfError) return null;
        throw err;
      }
    },

    async ownerOf(accountId: string): Promise<{ id: string; username: string; phone: string | null } | undefined> {
      const row = await repo.account(accountId);
      return row && { id: row.id, username: row.username, phone: row.phone };
    },

    labels: (typeCodes: readonly string[]) => repo.labels(typeCodes),

    async history(subjectType: string, subjectId: string, view: 'participant' | 'admin'): Promise<StatusHistoryEntry[]> {
      const rows = await repo.history(subjectType, subjectId);
      return rows.map((r: HistoryRow) => ({
        id: r.id,
        fromStatus: r.fromStatus as PrelimDocStatus | null,
        toStatus: r.toStatus as PrelimDocStatus,
        reason: r.reason,
        actorRealm: r.actorRealm,
        actorName: view === 'participant' && r.actorRealm !== 'USER' ? STAFF_DISPLAY_NAME : r.actorName,
        createdAt: r.createdAt.toISOString(),
      }));
    },

  };
}
export type ContestService = ReturnType<typeof createContestService>;
