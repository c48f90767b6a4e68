import type { Readable } from 'node:stream';
import {
  ADMIN_MSG,
  PARTICIPANT_ACCOUNT_HOLDS,
  TEAM_STATUS_LABELS,
  USER_EXPORT_COLUMNS,
  USER_EXPORT_MAX_ROWS,
  type Page,
  type RegisteredUser,
  type RegisteredUserDetail,
  type UserFilter,
} from '@contest/shared';
import type { Db } from '../../../db/client.js';
import { badRequest, notFound } from '../../../lib/errors.js';
import { generatePassword, hashPassword } from '../../../lib/password.js';
import { MASKED_PII, piiNote, type Pii } from '../../../lib/pii.js';
import { batches, beijingDate, beijingTime, rowsOf, writeXlsx } from '../../../lib/xlsx-stream.js';
import { recordOperation } from '../../audit/operation-log.js';
import type { SessionService } from '../../auth/session.service.js';
import type { AdminActor } from '../admin.guard.js';
import { createAccountReach, type AccountReach } from '../roles/account-reach.js';
import { createRoleRepository } from '../roles/roles.repository.js';
import { describeFilter, iso, isoOrNull } from '../admin-util.js';
import type { UserListSortedQuery } from './users.query.js';
import type { UserListRow, UserRepository } from './users.repository.js';

const EXPORT_BATCH = 1000;

// Answers carry phones, e-mails and credit codes masked (lib/pii.ts); GET /admin/pii/user/:id reads them in full.
function toUser(r: UserListRow): RegisteredUser {
  return {
    id: r.id,
    username: r.username,
    name: r.name,
    phone: MASKED_PII.phone(r.phone),
    email: MASKED_PII.email(r.email),
    enabled: r.enabled,
    createdAt: iso(r.createdAt),
    lastLoginAt: isoOrNull(r.lastLoginAt),
    team: r.teamId ? { id: r.teamId, teamName: r.teamName ?? '', orgName: r.orgName ?? '', status: r.teamStatus!, track: r.track } : null,
  };
}

/** One spreadsheet row: labels and Beijing times, for people (ISO is for machines); contacts as `pii` allows. */
const toExportRow = (pii: Pii) => (r: UserListRow) => ({
  username: r.username,
  name: r.name ?? '',
  phone: pii.phone(r.phone) ?? '',
  email: pii.email(r.email) ?? '',
  orgName: r.orgName ?? '',
  teamName: r.teamName ?? '',
  teamStatus: r.teamStatus ? TEAM_STATUS_LABELS[r.teamStatus] : '未报名',
  enabled: r.enabled ? '正常' : '已禁用',
  createdAt: beijingTime(r.createdAt),
  lastLoginAt: beijingTime(r.lastLoginAt),
});

const EXPORT_SHEET_COLUMNS = USER_EXPORT_COLUMNS.map((c) => ({ header: c.header, key: c.key, width: c.key === 'email' || c.key === 'orgName' ? 32 : 20 }));


interface Deps {
  db: Db;
  repo: UserRepository;
  sessions: SessionService;
  /** The reach rule (roles/account-reach.ts); by default over the roles of `db`. */
  reach?: AccountReach;
  now?: () => Date;
}

/** Registered participants: search, detail, disable, reset password, export (docs/rules/admin.md, "Registered users"). */
export function createUserService({ db, repo, sessions, reach = createAccountReach(createRoleRepository(db)), now = () => new Date() }: Deps) {
  async function summary(id: string): Promise<RegisteredUser> {
    const { agreedAt: _agreed, passwordChangedAt: _changed, team, ...account } = await detail(id);
    return { ...account, team: team ? { id: team.id, teamName: team.teamName, orgName: team.orgName, status: team.status, track: team.track } : null };
  }

  async function detail(id: string): Promise<RegisteredUserDetail> {
    const account = await repo.findById(id);
    if (!account) throw notFound(ADMIN_MSG.userNotFound);
    const team = await repo.teamOf(id);
    return {
      id: account.id,
      username: account.username,
      name: account.name,
      phone: MASKED_PII.phone(account.phone),
      email: MASKED_PII.email(account.email),
      enabled: account.enabled,
      createdAt: iso(account.createdAt),
      lastLoginAt: isoOrNull(account.lastLoginAt),
      agreedAt: isoOrNull(account.agreedAt),
      passwordChangedAt: isoOrNull(account.passwordChangedAt),
      team: team
        ? {
            id: team.id,
            teamName: team.teamName,
            orgName: team.orgName,
            status: team.status,
            track: team.track,
            orgType: team.orgType,
            creditCode: MASKED_PII.creditCode(team.creditCode),
            region: team.region,
            city: team.city,
            leaderName: team.leader?.name ?? null,
            leaderPhone: MASKED_PII.phone(team.leader?.phone ?? null),
            memberCount: team.members.length,
            submittedAt: isoOrNull(team.submittedAt),
            updatedAt: iso(team.updatedAt),
          }
        : null,
    };
  }

  return {
    /** `pii`: the caller's view of personal information; the answer is masked either way, it decides how phones are searched. */
    async list(q: UserListSortedQuery, pii: Pii): Promise<Page<RegisteredUser>> {
      const { rows, total } = await repo.page(q, pii.full);
      return { list: rows.map(toUser), page: q.page, size: q.size, total };
    },

    detail,

    async setEnabled(actor: AdminActor, id: string, enabled: boolean): Promise<RegisteredUser> {
      await db.transaction(async (tx) => {
        const account = await repo.lockById(id, tx);
        if (!account) throw notFound(ADMIN_MSG.userNotFound);
        await repo.update(id, { enabled, updatedAt: now() }, tx);
        // A disabled participant is out at once: their next call gets 401.
        if (!enabled) await sessions.revokeAll(id, 'DISABLED', undefined, tx);
        await recordOperation(tx, actor, {
          action: enabled ? 'user:enable' : 'user:disable',
          targetType: 'account',
          targetId: id,
          summary: `${enabled ? '启用' : '禁用'}注册用户 ${account.username}`,
        });
      });
      return summary(id);
    },

    async resetPassword(actor: AdminActor, id: string): Promise<{ password: string }> {
      const password = generatePassword();
      const passwordHash = await hashPassword(password);
      await db.transaction(async (tx) => {
        const account = await repo.lockById(id, tx);
        if (!account) throw notFound(ADMIN_MSG.userNotFound);
        // The operator can sign in with the new password: only within reach (PARTICIPANT_ACCOUNT_HOLDS).
        reach.assertWithin(await reach.reachOf(actor, tx), [...PARTICIPANT_ACCOUNT_HOLDS.menuCodes, ...PARTICIPANT_ACCOUNT_HOLDS.buttonCodes]);
        const at = now();
        // Known to the operator: the participant sets their own before anything else.
        await repo.update(id, { passwordHash, passwordChangedAt: at, mustChangePassword: true, updatedAt: at }, tx);
        await sessions.revokeAll(id, 'PASSWORD_CHANGED', undefined, tx);
        await recordOperation(tx, actor, { action: 'user:reset-password', targetType: 'account', targetId: id, summary: `重置注册用户 ${account.username} 的密码` });
      });
      return { password };
    },

    /**
     * Checks the size and records the export, then returns a stream that writes the workbook
     * in batches, so memory stays flat whatever the number of rows.
     */
    async export(actor: AdminActor, filter: UserFilter, pii: Pii): Promise<{ stream: Readable; fileName: string; rows: number }> {
      const total = await repo.count(filter, pii.full);
      if (total > USER_EXPORT_MAX_ROWS) throw badRequest(ADMIN_MSG.exportTooLarge);
      await db.transaction((tx) =>
        recordOperation(tx, actor, { action: 'user:export', targetType: 'account', summary: `导出注册用户 ${total} 条，筛选条件：${describeFilter(filter)}${piiNote(pii)}` }),
      );
      // Stop at the counted total: rows registered meanwhile wait for the next export.
      const read = batches((offset, limit, last: UserListRow | undefined) => repo.batch(filter, pii.full, offset, limit, last), total, EXPORT_BATCH);
      const stream = writeXlsx([{ name: '注册用户', columns: EXPORT_SHEET_COLUMNS, rows: rowsOf(read, toExportRow(pii)) }]);
      return { stream, fileName: `注册用户_${beijingDate(now())}.xlsx`, rows: total };
    },
  };
}
export type UserService = ReturnType<typeof createUserService>;
