import {
  CONTEST_MSG as M,
  TEAM_DICT_TYPES,
  TEAM_FILE_EXTENSIONS,
  TEAM_STATUS_LABELS,
  prelimDocStatusOf,
  teamEditable,
  type AuditInput,
  type TeamBrief,
  type TeamDetail,
  type TeamFileKind,
  type TeamForm,
  type TeamStatus,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import type { TeamPerson } from '../../db/schema.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import type { AuthContext } from '../auth/session.service.js';
import { escapeHtml, type ContestService } from '../contest/contest.service.js';
import type { TeamRepository, TeamRow } from './team.repository.js';

const FILE_TYPE_MESSAGE: Record<TeamFileKind, string> = {
  certificate: M.certificateType,
  commitment: M.commitmentType,
  recommendation: M.recommendationType,
};

const OUTCOME_NOTICE: Record<AuditInput['outcome'], string> = {
  APPROVED: '报名审核通过',
  REVISING: '报名信息需修改',
  REJECTED: '报名审核未通过',
};

type Participant = Pick<AuthContext, 'accountId' | 'realm' | 'username'>;

const blankToNull = (s: string) => (s === '' ? null : s);
const person = (p: Record<string, string>): TeamPerson => ({ ...p, name: p.name ?? '' });

/** Team sign-up (product.md 4): the participant's draft and submission, the admin's audit. */
export function createTeamService({ db, repo, contest }: { db: Db; repo: TeamRepository; contest: ContestService }) {
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

  async function toDetail(row: TeamRow, view: 'participant' | 'admin'): Promise<TeamDetail> {
    const files = await contest.filesById([row.certificateFileId, row.commitmentFileId, row.recommendationFileId]);
    const file = (id: string | null) => (id ? (files.get(id) ?? null) : null);
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    const p = (x: TeamPerson | null | undefined) => x ?? ({ name: '' } as TeamPerson);
    const leader = p(row.leader);
    const detail: TeamDetail = {
      id: row.id,
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
    }
    return detail;
  }

  /** Creates or updates the caller's team in `status`; the row stays locked until commit. */
  async function write(tx: Db, actor: Participant, form: TeamForm, files: Record<TeamFileKind, string | null>, submit: boolean): Promise<TeamRow> {
    const at = contest.now();
    const existing = await repo.lockByOwner(actor.accountId, tx);
    if (existing && !teamEditable(existing.status)) throw badRequest(submit ? M.teamNotSubmittable : M.teamNotEditable);
    const values = { ...columns(form, files), updatedAt: at };
    const to: TeamStatus = submit ? 'SUBMITTED' : (existing?.status ?? 'DRAFT');
    const submitted = submit ? { submittedAt: at, auditReason: null } : {};
    let row: TeamRow;
    if (existing) {
      row = await repo.update(tx, existing.id, { ...values, ...submitted, status: to });
    } else {
      const inserted = await repo.insert(tx, { ...values, ...submitted, ownerId: actor.accountId, status: to, createdAt: at });
      // A concurrent first save won the insert: refuse rather than overwrite it blindly.
      if (!inserted) throw badRequest(M.teamNotEditable);
      row = inserted;
    }
    const from = existing?.status ?? null;
    if (from !== to) {
      await contest.recordChange(tx, {
        subjectType: 'TEAM',
        subjectId: row.id,
        from,
        to,
        actor,
        notify: submit
          ? { ownerId: actor.accountId, title: '报名信息已提交', body: `您的团队「${escapeHtml(row.teamName)}」的报名信息已提交，请等待审核。` }
          : undefined,
      });
    }
    return row;
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
      return toDetail(row, 'participant');
    },

    async adminDetail(id: string): Promise<TeamDetail> {
      const row = await repo.byId(id);
      if (!row) throw notFound(M.teamNotFound);
      return toDetail(row, 'admin');
    },

    /** POST /admin/team/{id}/audit: only a SUBMITTED sign-up; history, notice and operation record in one transaction. */
    async audit(actor: OperationActor, id: string, input: AuditInput): Promise<TeamDetail> {
      const row = await db.transaction(async (tx) => {
        const team = await repo.lockById(id, tx);
        if (!team) throw notFound(M.teamNotFound);
        if (team.status !== 'SUBMITTED') throw badRequest(M.auditOnlySubmitted);
        const reason = input.outcome === 'APPROVED' ? (input.reason || null) : input.reason;
        const at = contest.now();
        const updated = await repo.update(tx, id, {
          status: input.outcome,
          auditReason: input.outcome === 'APPROVED' ? null : reason,
          auditedAt: at,
          updatedAt: at,
        });
        const body =
          input.outcome === 'APPROVED'
            ? `您的团队「${escapeHtml(team.teamName)}」报名审核已通过，请在初赛材料提交时间内提交初赛材料。`
            : `您的团队「${escapeHtml(team.teamName)}」报名审核结果：${TEAM_STATUS_LABELS[input.outcome]}。审核意见：${escapeHtml(reason ?? '')}`;
        await contest.recordChange(tx, {
          subjectType: 'TEAM',
          subjectId: id,
          from: 'SUBMITTED',
          to: input.outcome,
          reason,
          actor: actor.auth,
          notify: { ownerId: team.ownerId, title: OUTCOME_NOTICE[input.outcome], body },
        });
        await recordOperation(tx, actor, {
          action: 'qualification:audit',
          targetType: 'team',
          targetId: id,
          summary: `审核报名「${team.teamName}」：${TEAM_STATUS_LABELS[input.outcome]}${reason ? `；意见：${reason}` : ''}`,
        });
        return updated;
      });
      return toDetail(row, 'admin');
    },
  };
}
export type TeamService = ReturnType<typeof createTeamService>;
