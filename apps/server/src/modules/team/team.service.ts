import type { Readable } from 'node:stream';
import {
  CONTEST_MSG as M,
  TEAM_WORKFLOW,
  type Page,
  type TeamAdminDetail,
  type TeamAdminFilter,
  type TeamAdminListQuery,
  type TeamAdminRow,
  TEAM_DICT_TYPES,
  TEAM_FILE_EXTENSIONS,
  TEAM_STATUS_LABELS,
  prelimDocStatusOf,
  teamEditable,
  type TeamBrief,
  type TeamDetail,
  type TeamFileKind,
  type TeamForm,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { type TeamPerson } from '../../db/schema/team.js';
import { badRequest } from '../../lib/errors.js';
import { batches, beijingTime, writeXlsx } from '../../lib/xlsx-stream.js';
import { describeFilter } from '../admin/admin-util.js';
import { MASKED_PII, maskTeamDetail, piiNote, type Pii } from '../../lib/pii.js';
import type { OperationActor } from '../audit/operation-log.js';
import { createAuditedSubmission, type SubmissionServiceDeps } from '../workflow/audited-submission.js';
import type { AuthContext } from '../auth/session.service.js';
import type { ContestService } from '../contest/contest.service.js';
import type { TeamListRow, TeamRepository, TeamRow } from './team.repository.js';

const FILE_TYPE_MESSAGE: Record<TeamFileKind, string> = {
  certificate: M.certificateType,
  commitment: M.commitmentType,
  recommendation: M.recommendationType,
};


type Participant = Pick<AuthContext, 'accountId' | 'realm' | 'username'>;

const blankToNull = (s: string) => (s === '' ? null : s);
const person = (p: Record<string, string>): TeamPerson => ({ ...p, name: p.name ?? '' });

/** Team sign-up (docs/rules/team.md): the participant's draft and submission, the admin's audit. */
export function createTeamService({ db, repo, contest, workflow, reminders, afterCommit = () => {} }: SubmissionServiceDeps<TeamRepository, ContestService>) {
  /** Dictionary codes of the form; in a draft only those filled in are checked. */
  async function checkCodes(form: TeamForm): Promise<void> {
    await contest.checkCodes([
      { type: TEAM_DICT_TYPES.orgType, code: form.orgType, field: 'orgType', message: M.orgTypeInvalid },
      { type: TEAM_DICT_TYPES.region, code: form.region, field: 'region', message: M.regionInvalid },
      { type: TEAM_DICT_TYPES.track, code: form.track, field: 'track', message: M.trackInvalid },
      { type: TEAM_DICT_TYPES.title, code: form.leader.title, field: 'leader.title', message: M.titleInvalid },
      ...form.members.flatMap((m, i) => [
        { type: TEAM_DICT_TYPES.title, code: m.title, field: `members.${i}.title`, message: M.titleInvalid },
        { type: TEAM_DICT_TYPES.role, code: m.role, field: `members.${i}.role`, message: M.memberRoleInvalid },
      ]),
      ...(form.advisor ? [{ type: TEAM_DICT_TYPES.title, code: form.advisor.title, field: 'advisor.title', message: M.titleInvalid }] : []),
    ]);
  }

  /** Attachment ids for the row: the participant's own TEAM uploads of the right type. */
  async function resolveFiles(ownerId: string, form: TeamForm): Promise<Record<TeamFileKind, string | null>> {
    const kinds = Object.keys(TEAM_FILE_EXTENSIONS) as TeamFileKind[];
    const wanted = kinds.map((k) => form[k]).filter((u): u is string => u !== null);
    const files = await contest.ownFiles(ownerId, 'TEAM', wanted);
    const out = {} as Record<TeamFileKind, string | null>;
    for (const kind of kinds) {
      const uniqueNo = form[kind];
      const row = uniqueNo ? files.get(uniqueNo)! : null;
      if (row && !(TEAM_FILE_EXTENSIONS[kind] as readonly string[]).includes(row.extension)) throw badRequest(FILE_TYPE_MESSAGE[kind], { field: kind });
      out[kind] = row ? row.id : null;
    }
    return out;
  }

  function columns(form: TeamForm, files: Record<TeamFileKind, string | null>) {
    return {
      orgName: form.orgName,
      orgType: blankToNull(form.orgType),
      creditCode: blankToNull(form.creditCode),
      region: blankToNull(form.region),
      city: blankToNull(form.city),
      track: blankToNull(form.track),
      teamName: form.teamName,
      leader: person({ ...form.leader }),
      members: form.members.map((m) => person({ ...m })),
      advisor: form.advisor ? person({ ...form.advisor }) : null,
      certificateFileId: files.certificate,
      commitmentFileId: files.commitment,
      recommendationFileId: files.recommendation,
    };
  }

  async function toDetail(row: TeamRow, view: 'participant' | 'admin'): Promise<TeamDetail & { version: number }> {
    const files = await contest.filesById([row.certificateFileId, row.commitmentFileId, row.recommendationFileId]);
    const file = (id: string | null) => (id ? (files.get(id) ?? null) : null);
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    const p = (x: TeamPerson | null | undefined) => x ?? ({ name: '' } as TeamPerson);
    const leader = p(row.leader);
    const detail: TeamDetail & { version: number } = {
      id: row.id,
      version: row.version,
      status: row.status,
      orgName: row.orgName,
      orgType: row.orgType ?? '',
      creditCode: row.creditCode ?? '',
      region: row.region ?? '',
      city: row.city ?? '',
      track: row.track ?? '',
      teamName: row.teamName,
      leader: { name: str(leader.name), phone: str(leader.phone), email: str(leader.email), title: str(leader.title) },
      members: row.members.map((m) => ({
        name: str(m.name),
        organization: str(m.organization),
        title: str(m.title),
        phone: str(m.phone),
        email: str(m.email),
        role: str(m.role),
      })),
      advisor: row.advisor
        ? { name: str(row.advisor.name), organization: str(row.advisor.organization), title: str(row.advisor.title), phone: str(row.advisor.phone), email: str(row.advisor.email) }
        : null,
      certificate: file(row.certificateFileId),
      commitment: file(row.commitmentFileId),
      recommendation: file(row.recommendationFileId),
      auditReason: row.auditReason,
      submittedAt: row.submittedAt?.toISOString() ?? null,
      auditedAt: row.auditedAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      editable: teamEditable(row.status),
      history: await contest.history('TEAM', row.id, view),
    };
    if (view === 'admin') {
      const owner = await contest.ownerOf(row.ownerId);
      if (owner) detail.owner = owner;
      // The console reads contacts masked (lib/pii.ts); GET /admin/pii/team/:id has them in full.
      return maskTeamDetail(detail);
    }
    return detail;
  }

  async function adminDetailOf(row: TeamRow): Promise<TeamAdminDetail> {
    return { ...(await toDetail(row, 'admin')), lastRemindedOn: await repo.lastRemindedOn(row.id) };
  }

  const submission = createAuditedSubmission({ db, workflow, reminders, afterCommit }, {
    def: TEAM_WORKFLOW,
    repo,
    notFoundMessage: M.teamNotFound,
    nameOf: (team) => team.teamName,
    nameKey: 'teamName',
    statusLabels: TEAM_STATUS_LABELS,
    audit: { action: 'qualification:audit', targetType: 'team', what: '报名' },
    remind: { action: 'qualification-draft:remind', what: '未提交报名的团队' },
    adminDetail: adminDetailOf,
  });

  /** Creates or updates the caller's team; the row stays locked until commit. */
  function write(tx: Db, actor: Participant, form: TeamForm, files: Record<TeamFileKind, string | null>, submit: boolean): Promise<TeamRow> {
    return submission.write(tx, {
      actor: { auth: actor },
      submit,
      lock: (t) => repo.lockByOwner(actor.accountId, t),
      values: columns(form, files),
      insertValues: { ownerId: actor.accountId },
      lostInsert: M.teamNotEditable,
      at: contest.now(),
      submitted: (row) => ({ code: 'TEAM_SUBMITTED', ownerId: actor.accountId, vars: { teamName: row.teamName } }),
    });
  }

  const toRow = (r: TeamListRow): TeamAdminRow => ({
    id: r.team.id,
    version: r.team.version,
    status: r.team.status,
    teamName: r.team.teamName,
    orgName: r.team.orgName,
    orgType: r.team.orgType,
    region: r.team.region,
    city: r.team.city,
    track: r.team.track,
    leaderName: r.team.leader?.name || null,
    leaderPhone: MASKED_PII.phone(r.team.leader?.phone || null),
    memberCount: r.team.members.length,
    ownerUsername: r.ownerUsername,
    auditReason: r.team.auditReason,
    submittedAt: r.team.submittedAt?.toISOString() ?? null,
    auditedAt: r.team.auditedAt?.toISOString() ?? null,
    createdAt: r.team.createdAt.toISOString(),
    updatedAt: r.team.updatedAt.toISOString(),
    lastRemindedOn: r.lastRemindedOn,
  });

  async function list(q: TeamAdminListQuery, fallbackSort: 'submittedAt' | 'updatedAt' = 'submittedAt'): Promise<Page<TeamAdminRow>> {
    const { page, size, ...filter } = q;
    const { rows, total } = await repo.page(filter, page, size, fallbackSort);
    return { list: rows.map(toRow), page, size, total };
  }

  return {
    async brief(ownerId: string): Promise<TeamBrief> {
      const row = await repo.byOwner(ownerId);
      const prelim = row ? await repo.prelimStatusOfTeam(row.id) : null;
      return {
        teamStatus: row?.status ?? null,
        prelimDocStatus: prelimDocStatusOf(row?.status ?? null, prelim),
        teamId: row?.id ?? null,
        teamName: row?.teamName ?? null,
        orgName: row?.orgName ?? null,
        track: row?.track ?? null,
        auditReason: row?.auditReason ?? null,
        submittedAt: row?.submittedAt?.toISOString() ?? null,
        updatedAt: row?.updatedAt.toISOString() ?? null,
        editable: teamEditable(row?.status ?? null),
        signUpOpen: await contest.isOpen('signUp'),
      };
    },

    async mine(ownerId: string): Promise<TeamDetail | null> {
      const row = await repo.byOwner(ownerId);
      return row ? toDetail(row, 'participant') : null;
    },

    /** PUT /team/my: lenient; creates the DRAFT when there is none; only null, DRAFT, REVISING. */
    async saveDraft(actor: Participant, form: TeamForm): Promise<TeamDetail> {
      await contest.assertOpen('signUp', M.signUpClosed);
      const existing = await repo.byOwner(actor.accountId);
      if (existing && !teamEditable(existing.status)) throw badRequest(M.teamNotEditable);
      await checkCodes(form);
      const files = await resolveFiles(actor.accountId, form);
      const row = await db.transaction((tx) => write(tx, actor, form, files, false));
      return toDetail(row, 'participant');
    },

    /** POST /team/my/submit: the route validated `form` strictly; codes and files are checked here. */
    async submit(actor: Participant, form: TeamForm): Promise<TeamDetail> {
      await contest.assertOpen('signUp', M.signUpClosed);
      const existing = await repo.byOwner(actor.accountId);
      if (existing && !teamEditable(existing.status)) throw badRequest(M.teamNotSubmittable);
      await checkCodes(form);
      const files = await resolveFiles(actor.accountId, form);
      const row = await db.transaction((tx) => write(tx, actor, form, files, true));
      afterCommit();
      return toDetail(row, 'participant');
    },

    adminDetail: submission.adminDetail,
    /** 报名草稿 detail: only a DRAFT (the drafts page shows nothing else). */
    draftDetail: submission.draftDetail,
    list: (q: TeamAdminListQuery) => list(q),
    draftList: (q: TeamAdminListQuery) => list({ ...q, status: 'DRAFT' }, 'updatedAt'),
    queueNext: submission.queueNext,
    /** POST /admin/team/{id}/audit. */
    audit: submission.audit,
    /** POST /admin/team/audit/batch: per row, each in its own transaction. */
    batchAudit: submission.batchAudit,
    /** POST /admin/team/draft/remind: once per team per Beijing day. */
    remind: submission.remind,

    /**
     * GET /admin/team/export: every field, dictionary names, members on a sheet of their own.
     * Streamed in batches with backpressure; recorded as an operation with its filters.
     */
    async export(actor: OperationActor, filter: TeamAdminFilter, pii: Pii): Promise<{ stream: Readable; fileName: string }> {
      const total = await repo.count(filter);
      await submission.recordExport(actor, total, { action: 'qualification:export', summary: `导出报名信息 ${total} 条，筛选条件：${describeFilter(filter)}${piiNote(pii)}` });
      const L = await contest.labels(Object.values(TEAM_DICT_TYPES));
      const name = (type: string, code: string | null | undefined) => (code ? (L.get(type)?.get(code) ?? code) : '');
      const read = () => batches((offset, limit) => repo.batch(filter, offset, limit), total);
      const stream = writeXlsx([
        {
          name: '报名信息',
          columns: TEAM_EXPORT_COLUMNS,
          rows: (async function* () {
            for await (const batch of read()) {
              for (const { team: t, ownerUsername } of batch) {
                yield {
                  teamName: t.teamName,
                  orgName: t.orgName,
                  orgType: name(TEAM_DICT_TYPES.orgType, t.orgType),
                  creditCode: pii.creditCode(t.creditCode) ?? '',
                  region: name(TEAM_DICT_TYPES.region, t.region),
                  city: t.city ?? '',
                  track: name(TEAM_DICT_TYPES.track, t.track),
                  leaderName: t.leader?.name ?? '',
                  leaderTitle: name(TEAM_DICT_TYPES.title, t.leader?.title),
                  leaderPhone: pii.phone(t.leader?.phone) ?? '',
                  leaderEmail: pii.email(t.leader?.email) ?? '',
                  memberCount: t.members.length,
                  advisor: t.advisor ? [t.advisor.name, t.advisor.organization, name(TEAM_DICT_TYPES.title, t.advisor.title), pii.phone(t.advisor.phone), pii.email(t.advisor.email)].filter(Boolean).join(' / ') : '',
                  status: TEAM_STATUS_LABELS[t.status],
                  auditReason: t.auditReason ?? '',
                  submittedAt: beijingTime(t.submittedAt),
                  auditedAt: beijingTime(t.auditedAt),
                  username: ownerUsername,
                  createdAt: beijingTime(t.createdAt),
                  updatedAt: beijingTime(t.updatedAt),
                };
              }
            }
          })(),
        },
        {
          name: '团队成员',
          columns: MEMBER_EXPORT_COLUMNS,
          rows: (async function* () {
            for await (const batch of read()) {
              for (const { team: t } of batch) {
                let n = 0;
                for (const m of t.members) {
                  yield {
                    teamName: t.teamName,
                    orgName: t.orgName,
                    index: ++n,
                    name: m.name ?? '',
                    organization: m.organization ?? '',
                    title: name(TEAM_DICT_TYPES.title, m.title),
                    phone: pii.phone(m.phone) ?? '',
                    email: pii.email(m.email) ?? '',
                    role: name(TEAM_DICT_TYPES.role, m.role),
                  };
                }
              }
            }
          })(),
        },
      ]);
      return { stream, fileName: `报名信息_${beijingTime(contest.now()).slice(0, 10)}.xlsx` };
    },
  };
}
export type TeamService = ReturnType<typeof createTeamService>;

const TEAM_EXPORT_COLUMNS = [
  { header: '团队名称', key: 'teamName', width: 24 },
  { header: '单位名称', key: 'orgName', width: 32 },
  { header: '单位类型', key: 'orgType', width: 16 },
  { header: '统一社会信用代码', key: 'creditCode', width: 22 },
  { header: '所在地区', key: 'region', width: 12 },
  { header: '所在城市', key: 'city', width: 12 },
  { header: '参赛方向', key: 'track', width: 20 },
  { header: '负责人', key: 'leaderName', width: 12 },
  { header: '负责人职称', key: 'leaderTitle', width: 12 },
  { header: '负责人手机', key: 'leaderPhone', width: 14 },
  { header: '负责人邮箱', key: 'leaderEmail', width: 26 },
  { header: '成员人数', key: 'memberCount', width: 10 },
  { header: '指导老师', key: 'advisor', width: 36 },
  { header: '状态', key: 'status', width: 10 },
  { header: '审核意见', key: 'auditReason', width: 30 },
  { header: '提交时间', key: 'submittedAt', width: 20 },
  { header: '审核时间', key: 'auditedAt', width: 20 },
  { header: '注册账号', key: 'username', width: 16 },
  { header: '创建时间', key: 'createdAt', width: 20 },
  { header: '更新时间', key: 'updatedAt', width: 20 },
];

const MEMBER_EXPORT_COLUMNS = [
  { header: '团队名称', key: 'teamName', width: 24 },
  { header: '单位名称', key: 'orgName', width: 32 },
  { header: '序号', key: 'index', width: 6 },
  { header: '姓名', key: 'name', width: 12 },
  { header: '所在单位', key: 'organization', width: 32 },
  { header: '职称', key: 'title', width: 12 },
  { header: '手机', key: 'phone', width: 14 },
  { header: '邮箱', key: 'email', width: 26 },
  { header: '团队角色', key: 'role', width: 12 },
];
