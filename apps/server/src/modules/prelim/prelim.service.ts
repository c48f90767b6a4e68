import {
  CONTEST_MSG as M,
  PRELIM_DOC_STATUS_LABELS,
  PRELIM_FILE_EXTENSIONS,
  prelimEditable,
  type AuditInput,
  type PrelimBrief,
  type PrelimDetail,
  type PrelimDocStatus,
  type PrelimFileKind,
  type PrelimForm,
  type TeamStatus,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import type { AuthContext } from '../auth/session.service.js';
import type { AttachmentRow } from '../contest/contest.repository.js';
import { escapeHtml, type ContestService } from '../contest/contest.service.js';
import type { PrelimRepository, PrelimRow } from './prelim.repository.js';

type Participant = Pick<AuthContext, 'accountId' | 'realm' | 'username'>;
type TeamRow = NonNullable<Awaited<ReturnType<PrelimRepository['teamOf']>>>;

const FILE_TYPE_MESSAGE: Record<PrelimFileKind, string> = {
  application: M.applicationType,
  presentation: M.presentationType,
  video: M.videoType,
  other: M.otherType,
};

const OUTCOME_NOTICE: Record<AuditInput['outcome'], string> = {
  APPROVED: '初赛材料形式审查通过',
  REVISING: '初赛材料需修改',
  REJECTED: '初赛材料形式审查未通过',
};

interface Resolved {
  applicationFileId: string | null;
  presentationFileId: string | null;
  videoFileId: string | null;
  otherFileIds: string[];
  application: AttachmentRow | null;
}

/** Preliminary materials (product.md 5): open to approved teams only; the application PDF is counted here. */
export function createPrelimService({ db, repo, contest }: { db: Db; repo: PrelimRepository; contest: ContestService }) {
  /** The caller's team when it is approved; writes by anyone else are refused. */
  async function approvedTeam(ownerId: string): Promise<TeamRow> {
    const team = await repo.teamOf(ownerId);
    if (!team || team.status !== 'APPROVED') throw forbidden(M.prelimNeedsApproval);
    return team;
  }

  async function resolveFiles(ownerId: string, form: PrelimForm): Promise<Resolved> {
    const single = { application: form.application, presentation: form.presentation, video: form.video } as const;
    const wanted = [...Object.values(single), ...form.others].filter((u): u is string => u !== null);
    const files = await contest.ownFiles(ownerId, 'PRELIM', wanted);
    const limits = await contest.prelimFileMaxBytes();
    const check = (kind: PrelimFileKind, uniqueNo: string | null, field: string): AttachmentRow | null => {
      if (!uniqueNo) return null;
      const row = files.get(uniqueNo)!;
      if (!(PRELIM_FILE_EXTENSIONS[kind] as readonly string[]).includes(row.extension)) throw badRequest(FILE_TYPE_MESSAGE[kind], { field });
      if (row.size > limits[kind]) throw badRequest(M.fileTooLarge, { field });
      return row;
    };
    const application = check('application', single.application, 'application');
    return {
      application,
      applicationFileId: application?.id ?? null,
      presentationFileId: check('presentation', single.presentation, 'presentation')?.id ?? null,
      videoFileId: check('video', single.video, 'video')?.id ?? null,
      otherFileIds: [...new Set(form.others)].map((u, i) => check('other', u, `others.${i}`)!.id),
    };
  }

  /** Counted characters, reusing the stored count when the application PDF has not changed. */
  async function applicationChars(existing: PrelimRow | undefined, application: AttachmentRow | null): Promise<number | null> {
    if (!application) return null;
    if (existing?.applicationFileId === application.id && existing.applicationChars !== null) return existing.applicationChars;
    return contest.countPdf(application, (await contest.prelimFileMaxBytes()).application);
  }

  async function toDetail(team: TeamRow, row: PrelimRow | undefined, view: 'participant' | 'admin'): Promise<PrelimDetail> {
    const files = await contest.filesById(row ? [row.applicationFileId, row.presentationFileId, row.videoFileId, ...row.otherFileIds] : []);
    const file = (id: string | null | undefined) => (id ? (files.get(id) ?? null) : null);
    const status: PrelimDocStatus = row?.status ?? 'NOT_FILLED';
    const detail: PrelimDetail = {
      id: row?.id ?? null,
      teamId: team.id,
      teamName: team.teamName,
      status,
      projectName: row?.projectName ?? '',
      // A fresh form starts from the sign-up's track (product.md 5).
      track: row ? (row.track ?? '') : (team.track ?? ''),
      summary: row?.summary ?? '',
      keywords: row?.keywords ?? [],
      application: file(row?.applicationFileId),
      applicationChars: row?.applicationChars ?? null,
      maxApplicationChars: await contest.maxApplicationChars(),
      presentation: file(row?.presentationFileId),
      video: file(row?.videoFileId),
      others: (row?.otherFileIds ?? []).map((id) => file(id)).filter((f) => f !== null),
      auditReason: row?.auditReason ?? null,
      submittedAt: row?.submittedAt?.toISOString() ?? null,
      auditedAt: row?.auditedAt?.toISOString() ?? null,
      createdAt: row?.createdAt.toISOString() ?? null,
      updatedAt: row?.updatedAt.toISOString() ?? null,
      editable: team.status === 'APPROVED' && prelimEditable(status),
      history: row ? await contest.history('PRELIM', row.id, view) : [],
    };
    if (view === 'admin') {
      const owner = await contest.ownerOf(team.ownerId);
      if (owner) detail.owner = owner;
    }
    return detail;
  }

  async function save(actor: Participant, form: PrelimForm, submit: boolean): Promise<PrelimDetail> {
    await contest.assertOpen('prelimSubmission', M.prelimClosed);
    const team = await approvedTeam(actor.accountId);
    const refusal = submit ? M.prelimNotSubmittable : M.prelimNotEditable;
    const existing = await repo.byTeam(team.id);
    if (existing && !prelimEditable(existing.status)) throw badRequest(refusal);
    await contest.checkCodes([{ type: 'TRACK', code: form.track, field: 'track', message: M.trackInvalid }]);
    const files = await resolveFiles(actor.accountId, form);
    // Counted before the transaction: reading the PDF takes a while and needs no lock.
    const chars = await applicationChars(existing, files.application);
    if (submit) {
      if (chars === null) throw badRequest(M.applicationUnreadable, { field: 'application' });
      const cap = await contest.maxApplicationChars();
      if (cap !== null && chars > cap) throw badRequest(M.applicationTooManyChars, { field: 'application', applicationChars: chars, maxApplicationChars: cap });
    }

    const row = await db.transaction(async (tx) => {
      const at = contest.now();
      const current = await repo.lockByTeam(team.id, tx);
      if (current && !prelimEditable(current.status)) throw badRequest(refusal);
      const values = {
        projectName: form.projectName,
        track: form.track === '' ? null : form.track,
        summary: form.summary,
        keywords: form.keywords,
        applicationFileId: files.applicationFileId,
        applicationChars: chars,
        presentationFileId: files.presentationFileId,
        videoFileId: files.videoFileId,
        otherFileIds: files.otherFileIds,
        updatedAt: at,
      };
      const from: PrelimDocStatus = current?.status ?? 'NOT_FILLED';
      const to: TeamStatus = submit ? 'SUBMITTED' : (current?.status ?? 'DRAFT');
      const submitted = submit ? { submittedAt: at, auditReason: null } : {};
      let saved: PrelimRow;
      if (current) {
        saved = await repo.update(tx, current.id, { ...values, ...submitted, status: to });
      } else {
        const inserted = await repo.insert(tx, { ...values, ...submitted, teamId: team.id, ownerId: actor.accountId, status: to, createdAt: at });
        if (!inserted) throw badRequest(refusal);
        saved = inserted;
      }
      if (from !== to) {
        await contest.recordChange(tx, {
          subjectType: 'PRELIM',
          subjectId: saved.id,
          from,
          to,
          actor,
          notify: submit
            ? { ownerId: actor.accountId, title: '初赛材料已提交', body: `您的项目「${escapeHtml(saved.projectName)}」的初赛材料已提交，请等待形式审查。` }
            : undefined,
        });
      }
      return saved;
    });
    return toDetail(team, row, 'participant');
  }

  return {
    async brief(ownerId: string): Promise<PrelimBrief> {
      const team = await repo.teamOf(ownerId);
      const approved = team?.status === 'APPROVED';
      const row = approved ? await repo.byTeam(team.id) : undefined;
      const status: PrelimDocStatus | null = approved ? (row?.status ?? 'NOT_FILLED') : null;
      return {
        teamStatus: team?.status ?? null,
        prelimDocStatus: status,
        id: row?.id ?? null,
        projectName: row?.projectName ?? null,
        applicationChars: row?.applicationChars ?? null,
        maxApplicationChars: await contest.maxApplicationChars(),
        auditReason: row?.auditReason ?? null,
        submittedAt: row?.submittedAt?.toISOString() ?? null,
        updatedAt: row?.updatedAt.toISOString() ?? null,
        editable: approved && prelimEditable(status),
        submissionOpen: await contest.isOpen('prelimSubmission'),
      };
    },

    /** null unless the caller's sign-up is approved. */
    async mine(ownerId: string): Promise<PrelimDetail | null> {
      const team = await repo.teamOf(ownerId);
      if (!team || team.status !== 'APPROVED') return null;
      return toDetail(team, await repo.byTeam(team.id), 'participant');
    },

    saveDraft: (actor: Participant, form: PrelimForm) => save(actor, form, false),
    submit: (actor: Participant, form: PrelimForm) => save(actor, form, true),

    async adminDetail(id: string): Promise<PrelimDetail> {
      const row = await repo.byId(id);
      const team = row && (await repo.teamById(row.teamId));
      if (!row || !team) throw notFound(M.prelimNotFound);
      return toDetail(team, row, 'admin');
    },

    /** POST /admin/prelim-doc/{id}/audit: only SUBMITTED materials. */
    async audit(actor: OperationActor, id: string, input: AuditInput): Promise<PrelimDetail> {
      const row = await db.transaction(async (tx) => {
        const doc = await repo.lockById(id, tx);
        if (!doc) throw notFound(M.prelimNotFound);
        if (doc.status !== 'SUBMITTED') throw badRequest(M.auditOnlySubmitted);
        const reason = input.reason || null;
        const at = contest.now();
        const updated = await repo.update(tx, id, {
          status: input.outcome,
          auditReason: input.outcome === 'APPROVED' ? null : reason,
          auditedAt: at,
          updatedAt: at,
        });
        const name = escapeHtml(doc.projectName);
        const body =
          input.outcome === 'APPROVED'
            ? `您的项目「${name}」初赛材料已通过形式审查，将进入初赛评审。`
            : `您的项目「${name}」初赛材料审查结果：${PRELIM_DOC_STATUS_LABELS[input.outcome]}。审核意见：${escapeHtml(reason ?? '')}`;
        await contest.recordChange(tx, {
          subjectType: 'PRELIM',
          subjectId: id,
          from: 'SUBMITTED',
          to: input.outcome,
          reason,
          actor: actor.auth,
          notify: { ownerId: doc.ownerId, title: OUTCOME_NOTICE[input.outcome], body },
        });
        await recordOperation(tx, actor, {
          action: 'preliminary:audit',
          targetType: 'prelim_doc',
          targetId: id,
          summary: `审核初赛材料「${doc.projectName}」：${PRELIM_DOC_STATUS_LABELS[input.outcome]}${reason ? `；意见：${reason}` : ''}`,
        });
        return updated;
      });
      const team = (await repo.teamById(row.teamId))!;
      return toDetail(team, row, 'admin');
    },
  };
}
export type PrelimService = ReturnType<typeof createPrelimService>;
