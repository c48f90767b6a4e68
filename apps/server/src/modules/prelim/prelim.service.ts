import type { Readable } from 'node:stream';
import {
  CONTEST_MSG as M,
  FINAL_WORKFLOW,
  PRELIM_WORKFLOW,
  type FinalAdminRow,
  type FinalChangeInput,
  type Page,
  type PrelimAdminDetail,
  type PrelimAdminFilter,
  type PrelimAdminListQuery,
  type PrelimAdminRow,
  PRELIM_DOC_STATUS_LABELS,
  PRELIM_FILE_EXTENSIONS,
  prelimEditable,
  type PrelimBrief,
  type PrelimDetail,
  type PrelimDocStatus,
  type PrelimFileKind,
  type PrelimForm,
  findTeamNames,
  type BlindFinding,
} from '@contest/shared';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import { batches, beijingTime, writeXlsx } from '../../lib/xlsx-stream.js';
import { createAuditedSubmission, type SubmissionServiceDeps } from '../workflow/audited-submission.js';
import { createFinalEntriesService } from '../final-entries/final-entries.service.js';
import { describeFilter } from '../admin/admin-util.js';
import { maskOwner } from '../../lib/pii.js';
import type { OperationActor } from '../audit/operation-log.js';
import type { AuthContext } from '../auth/session.service.js';
import type { AttachmentRow } from '../contest/contest.repository.js';
import type { ContestService } from '../contest/contest.service.js';
import type { PrelimListRow, PrelimRepository, PrelimRow } from './prelim.repository.js';

type Participant = Pick<AuthContext, 'accountId' | 'realm' | 'username'>;
type TeamRow = NonNullable<Awaited<ReturnType<PrelimRepository['teamOf']>>>;

const FILE_TYPE_MESSAGE: Record<PrelimFileKind, string> = {
  application: M.applicationType,
  presentation: M.presentationType,
  video: M.videoType,
  other: M.otherType,
};


interface Resolved {
  applicationFileId: string | null;
  presentationFileId: string | null;
  videoFileId: string | null;
  otherFileIds: string[];
  application: AttachmentRow | null;
}

/** Preliminary materials (docs/rules/prelim.md): open to approved teams only; the application PDF is counted here. */
export function createPrelimService({ db, repo, contest, workflow, reminders, afterCommit = () => {} }: SubmissionServiceDeps<PrelimRepository, ContestService>) {
  const finals = createFinalEntriesService({ workflow });

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
      // A fresh form starts from the sign-up's track (docs/rules/prelim.md).
      track: row ? (row.track ?? '') : (team.track ?? ''),
      summary: row?.summary ?? '',
      keywords: row?.keywords ?? [],
      application: file(row?.applicationFileId),
      applicationChars: row?.applicationChars ?? null,
      maxApplicationChars: await contest.maxApplicationChars(),
      fileMaxBytes: await contest.prelimFileMaxBytes(),
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
      // The console reads the owner's phone masked (lib/pii.ts); GET /admin/pii/prelim/:id has it in full.
      if (owner) return maskOwner({ ...detail, owner });
    }
    return detail;
  }

  // The application's findings per file and names: a stored file never changes, so the PDF is
  // read once per process, not on every opening of the audit page. Bounded, oldest out first.
  const findingsCache = new Map<string, BlindFinding[]>();
  const FINDINGS_CACHE_MAX = 500;

  /**
   * The formal check's blind-review warning (docs/security.md, "Blind review"): where the
   * application PDF's text (the same pdf.js reading as the character count) or its metadata names
   * the team's organisation or team name, folded as organisation names are.
   */
  async function blindWarningsOf(row: PrelimRow, team: TeamRow): Promise<BlindFinding[]> {
    if (!row.applicationFileId) return [];
    const key = `${row.applicationFileId}\n${team.orgName}\n${team.teamName}`;
    const cached = findingsCache.get(key);
    if (cached) return cached;
    const content = await contest.pdfContent(row.applicationFileId, (await contest.prelimFileMaxBytes()).application);
    const findings = content ? findTeamNames(content, { orgName: team.orgName, teamName: team.teamName }) : [];
    if (findingsCache.size >= FINDINGS_CACHE_MAX) findingsCache.delete(findingsCache.keys().next().value!);
    findingsCache.set(key, findings);
    return findings;
  }

  async function adminDetailOf(row: PrelimRow): Promise<PrelimAdminDetail> {
    const team = (await repo.teamById(row.teamId))!;
    const entry = await repo.finalEntry(row.id);
    return {
      blindWarnings: await blindWarningsOf(row, team),
      ...(await toDetail(team, row, 'admin')),
      version: row.version,
      orgName: team.orgName,
      lastRemindedOn: await repo.lastRemindedOn(row.id),
      final: entry ? { status: entry.status, version: entry.version, reason: entry.reason, at: entry.updatedAt.toISOString() } : null,
      finalHistory: entry ? await contest.history('FINAL', row.id, 'admin') : [],
    };
  }

  const toRow = (r: PrelimListRow, maxApplicationChars: number | null): PrelimAdminRow => ({
    id: r.doc.id,
    version: r.doc.version,
    status: r.doc.status,
    projectName: r.doc.projectName,
    track: r.doc.track,
    teamId: r.doc.teamId,
    teamName: r.teamName,
    orgName: r.orgName,
    ownerUsername: r.ownerUsername,
    applicationChars: r.doc.applicationChars,
    auditReason: r.doc.auditReason,
    submittedAt: r.doc.submittedAt?.toISOString() ?? null,
    auditedAt: r.doc.auditedAt?.toISOString() ?? null,
    createdAt: r.doc.createdAt.toISOString(),
    updatedAt: r.doc.updatedAt.toISOString(),
    lastRemindedOn: r.lastRemindedOn,
    inFinal: r.finalStatus === 'IN',
    maxApplicationChars,
  });

  async function list(q: PrelimAdminListQuery, opts: { fallbackSort?: 'submittedAt' | 'updatedAt' } = {}): Promise<Page<PrelimAdminRow>> {
    const { page, size, ...filter } = q;
    const { rows, total } = await repo.page(filter, page, size, opts);
    const cap = await contest.maxApplicationChars();
    return { list: rows.map((r) => toRow(r, cap)), page, size, total };
  }

  const submission = createAuditedSubmission({ db, workflow, reminders, afterCommit }, {
    def: PRELIM_WORKFLOW,
    repo,
    notFoundMessage: M.prelimNotFound,
    nameOf: (doc) => doc.projectName,
    nameKey: 'projectName',
    statusLabels: PRELIM_DOC_STATUS_LABELS,
    audit: { action: 'preliminary:audit', targetType: 'prelim_doc', what: '初赛材料' },
    remind: { action: 'preliminary-draft:remind', what: '未提交初赛材料的团队' },
    adminDetail: adminDetailOf,
  });

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

    const row = await db.transaction((tx) =>
      submission.write(tx, {
        actor: { auth: actor },
        submit,
        lock: (t) => repo.lockByTeam(team.id, t),
        recheck: (current) => {
          if (current && !prelimEditable(current.status)) throw badRequest(refusal);
        },
        values: {
          projectName: form.projectName,
          track: form.track === '' ? null : form.track,
          summary: form.summary,
          keywords: form.keywords,
          applicationFileId: files.applicationFileId,
          applicationChars: chars,
          presentationFileId: files.presentationFileId,
          videoFileId: files.videoFileId,
          otherFileIds: files.otherFileIds,
        },
        insertValues: { teamId: team.id, ownerId: actor.accountId },
        lostInsert: refusal,
        at: contest.now(),
        historyFrom: 'NOT_FILLED',
        submitted: (saved) => ({ code: 'PRELIM_SUBMITTED', ownerId: actor.accountId, vars: { projectName: saved.projectName } }),
      }),
    );
    if (submit) afterCommit();
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
      const row = await repo.byTeam(team.id);
      const detail = await toDetail(team, row, 'participant');
      // 晋级决赛 shows on the participant's materials once the project is in the final round.
      return { ...detail, inFinal: row ? (await repo.finalEntry(row.id))?.status === 'IN' : false };
    },

    saveDraft: (actor: Participant, form: PrelimForm) => save(actor, form, false),
    submit: (actor: Participant, form: PrelimForm) => save(actor, form, true),

    adminDetail: submission.adminDetail,
    /** 初赛草稿 detail: only a DRAFT. */
    draftDetail: submission.draftDetail,

    /** 决赛项目 detail: materials that are or were in the final round. */
    async finalDetail(id: string): Promise<PrelimAdminDetail> {
      const row = await repo.byId(id);
      if (!row || !(await repo.finalEntry(id))) throw notFound(M.prelimNotFound);
      return adminDetailOf(row);
    },

    list: (q: PrelimAdminListQuery) => list(q),
    draftList: (q: PrelimAdminListQuery) => list({ ...q, status: 'DRAFT' }, { fallbackSort: 'updatedAt' }),
    async finalList(q: PrelimAdminListQuery): Promise<Page<FinalAdminRow>> {
      const { page, size, ...filter } = q;
      const { rows, total } = await repo.page(filter, page, size, { finalOnly: true, fallbackSort: 'projectName' });
      const cap = await contest.maxApplicationChars();
      return {
        list: rows.map((r) => ({ ...toRow(r, cap), finalVersion: r.finalVersion ?? 1, finalReason: r.finalReason, finalAt: (r.finalAt ?? r.doc.updatedAt).toISOString() })),
        page,
        size,
        total,
      };
    },

    queueNext: submission.queueNext,
    /** POST /admin/prelim-doc/{id}/audit: only SUBMITTED materials. */
    audit: submission.audit,
    /** Per row, each in its own transaction (as the sign-up batch). */
    batchAudit: submission.batchAudit,
    remind: submission.remind,

    /**
     * POST /admin/final/{id}/add and /remove (FINAL workflow): only APPROVED materials enter; the
     * materials row is locked first, so an add and a remove of one project never interleave.
     */
    async changeFinal(actor: OperationActor, id: string, action: 'ADD' | 'REMOVE', input: FinalChangeInput): Promise<PrelimAdminDetail> {
      const doc = await db.transaction(async (tx) => {
        const doc = await repo.lockById(id, tx);
        if (!doc) throw notFound(M.prelimNotFound);
        const entry = await finals.lock(tx, id);
        if (input.version !== undefined && entry && entry.version !== input.version) {
          throw badRequest(M.stale, { reason: 'STALE', status: entry.status, version: entry.version });
        }
        const from = entry?.status ?? null;
        // Refused as before the approval check: the step first, then the materials' state.
        workflow.check(FINAL_WORKFLOW, action, from, actor, input.reason);
        if (action === 'ADD' && doc.status !== 'APPROVED') throw badRequest(M.finalNeedsApproved, { reason: 'NOT_ALLOWED' });
        await finals.move(tx, {
          prelimId: id,
          action,
          from,
          reason: input.reason,
          actor,
          at: contest.now(),
          operation: {
            action: 'final:promote',
            targetType: 'prelim_doc',
            targetId: id,
            summary: `${action === 'ADD' ? '加入' : '移出'}决赛名单「${doc.projectName}」；原因：${input.reason}`,
          },
        });
        return doc;
      });
      return adminDetailOf(doc);
    },

    async export(actor: OperationActor, filter: PrelimAdminFilter, finalOnly = false): Promise<{ stream: Readable; fileName: string }> {
      const total = await repo.count(filter, finalOnly);
      const what = finalOnly ? '决赛项目' : '初赛材料';
      await submission.recordExport(actor, total, { action: finalOnly ? 'final:export' : 'preliminary:export', summary: `导出${what} ${total} 条，筛选条件：${describeFilter(filter)}` });
      const L = await contest.labels(['TRACK']);
      const cap = await contest.maxApplicationChars();
      const stream = writeXlsx([
        {
          name: what,
          columns: PRELIM_EXPORT_COLUMNS,
          rows: (async function* () {
            for await (const batch of batches((offset, limit) => repo.batch(filter, offset, limit, finalOnly), total)) {
              for (const r of batch) {
                const d = r.doc;
                yield {
                  projectName: d.projectName,
                  teamName: r.teamName,
                  orgName: r.orgName,
                  track: d.track ? (L.get('TRACK')?.get(d.track) ?? d.track) : '',
                  summary: d.summary,
                  keywords: d.keywords.join('、'),
                  applicationChars: d.applicationChars ?? '',
                  cap: cap ?? '',
                  otherCount: d.otherFileIds.length,
                  hasVideo: d.videoFileId ? '有' : '无',
                  status: PRELIM_DOC_STATUS_LABELS[d.status],
                  auditReason: d.auditReason ?? '',
                  inFinal: r.finalStatus === 'IN' ? '是' : '否',
                  username: r.ownerUsername,
                  submittedAt: beijingTime(d.submittedAt),
                  auditedAt: beijingTime(d.auditedAt),
                  updatedAt: beijingTime(d.updatedAt),
                };
              }
            }
          })(),
        },
      ]);
      return { stream, fileName: `${what}_${beijingTime(contest.now()).slice(0, 10)}.xlsx` };
    },
  };
}
export type PrelimService = ReturnType<typeof createPrelimService>;

const PRELIM_EXPORT_COLUMNS = [
  { header: '项目名称', key: 'projectName', width: 30 },
  { header: '团队名称', key: 'teamName', width: 24 },
  { header: '单位名称', key: 'orgName', width: 32 },
  { header: '参赛方向', key: 'track', width: 20 },
  { header: '项目简介', key: 'summary', width: 60 },
  { header: '关键词', key: 'keywords', width: 30 },
  { header: '申报书字数', key: 'applicationChars', width: 12 },
  { header: '字数上限', key: 'cap', width: 10 },
  { header: '其他附件数', key: 'otherCount', width: 10 },
  { header: '演示视频', key: 'hasVideo', width: 10 },
  { header: '状态', key: 'status', width: 14 },
  { header: '审核意见', key: 'auditReason', width: 30 },
  { header: '进入决赛', key: 'inFinal', width: 10 },
  { header: '注册账号', key: 'username', width: 16 },
  { header: '提交时间', key: 'submittedAt', width: 20 },
  { header: '审核时间', key: 'auditedAt', width: 20 },
  { header: '更新时间', key: 'updatedAt', width: 20 },
];
