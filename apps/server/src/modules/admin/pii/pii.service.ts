import { ADMIN_MSG, type PiiKind, type PiiReveal } from '@contest/shared';
import type { Db } from '../../../db/client.js';
import { type TeamPerson } from '../../team/team.read-model.js';
import { notFound } from '../../../lib/errors.js';
import { recordOperation, type OperationActor } from '../../audit/operation-log.js';
import type { PiiRepository } from './pii.repository.js';

/** What the operation record calls each kind, and the target type it files the record under. */
const KIND: Record<PiiKind, { name: string; targetType: string }> = {
  user: { name: '注册用户', targetType: 'account' },
  team: { name: '报名', targetType: 'team' },
  prelim: { name: '项目', targetType: 'prelim_doc' },
  expert: { name: '专家', targetType: 'expert' },
  feedback: { name: '用户反馈', targetType: 'feedback' },
  account: { name: '系统账号', targetType: 'account' },
};

/** The record names the fields it revealed, never their values. */
function fieldName(path: string): string {
  const member = path.match(/^members\.(\d+)\.(phone|email)$/);
  if (member) return `成员${Number(member[1]) + 1}${member[2] === 'phone' ? '手机号' : '邮箱'}`;
  const declared = path.match(/^declaredOrgs\.(\d+)\.creditCode$/);
  if (declared) return `回避单位${Number(declared[1]) + 1}信用代码`;
  const NAMES: Record<string, string> = {
    phone: '手机号',
    email: '邮箱',
    creditCode: '统一社会信用代码',
    'team.creditCode': '统一社会信用代码',
    leaderPhone: '负责人手机号',
    'team.leaderPhone': '负责人手机号',
    'leader.phone': '负责人手机号',
    'leader.email': '负责人邮箱',
    'advisor.phone': '指导老师手机号',
    'advisor.email': '指导老师邮箱',
    'owner.phone': '账号手机号',
    orgCreditCode: '单位统一社会信用代码',
    contact: '联系方式',
  };
  return NAMES[path] ?? path;
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** Values by path, empty ones left out (the page keeps showing its placeholder for those). */
function valuesOf(entries: Array<[string, unknown]>): Record<string, string> {
  return Object.fromEntries(entries.map(([k, v]) => [k, str(v)] as const).filter(([, v]) => v !== ''));
}

const person = (prefix: string, p: TeamPerson | null | undefined): Array<[string, unknown]> => [
  [`${prefix}.phone`, p?.phone],
  [`${prefix}.email`, p?.email],
];

/**
 * GET /admin/pii/:kind/:id (docs/rules/admin.md, "Personal information"): one record's personal information in full,
 * for a role holding pii:view, with an operation record of who read which record's which
 * fields, written before the answer leaves.
 */
export function createPiiService({ db, repo }: { db: Db; repo: PiiRepository }) {
  async function read(kind: PiiKind, id: string): Promise<{ label: string; values: Record<string, string> } | undefined> {
    switch (kind) {
      case 'user': {
        const r = await repo.participant(id);
        return r && { label: r.username, values: valuesOf([['phone', r.phone], ['email', r.email], ['team.creditCode', r.creditCode], ['team.leaderPhone', r.leader?.phone]]) };
      }
      case 'team': {
        const r = await repo.team(id);
        return (
          r && {
            label: r.teamName,
            values: valuesOf([
              ['creditCode', r.creditCode],
              // The lists show the leader's phone as `leaderPhone`, the detail as `leader.phone`.
              ['leaderPhone', r.leader?.phone],
              ...person('leader', r.leader),
              ...r.members.flatMap((m, i) => person(`members.${i}`, m)),
              ...person('advisor', r.advisor),
              ['owner.phone', r.ownerPhone],
            ]),
          }
        );
      }
      case 'prelim': {
        const r = await repo.prelim(id);
        return r && { label: r.projectName, values: valuesOf([['owner.phone', r.ownerPhone]]) };
      }
      case 'expert': {
        const r = await repo.expert(id);
        return (
          r && {
            label: [r.code, r.name].filter(Boolean).join(' '),
            values: valuesOf([['phone', r.phone], ['orgCreditCode', r.orgCreditCode], ...(r.declaredOrgs ?? []).map((d, i): [string, unknown] => [`declaredOrgs.${i}.creditCode`, d.creditCode])]),
          }
        );
      }
      case 'feedback': {
        const r = await repo.feedback(id);
        return r && { label: `${r.username} 的反馈`, values: valuesOf([['contact', r.contact], ['owner.phone', r.ownerPhone]]) };
      }
      case 'account': {
        const r = await repo.operator(id);
        return r && { label: r.username, values: valuesOf([['phone', r.phone], ['email', r.email]]) };
      }
    }
  }

  return {
    async reveal(actor: OperationActor, kind: PiiKind, id: string): Promise<PiiReveal> {
      const found = await read(kind, id);
      if (!found) throw notFound(ADMIN_MSG.piiRecordNotFound);
      const fields = [...new Set(Object.keys(found.values).map(fieldName))];
      await db.transaction((tx) =>
        recordOperation(tx, actor, {
          action: 'pii:view',
          targetType: KIND[kind].targetType,
          targetId: id,
          summary: `查看完整个人信息：${KIND[kind].name} ${found.label}（${fields.join('、') || '无个人信息'}）`,
        }),
      );
      return { kind, id, values: found.values };
    },
  };
}
export type PiiService = ReturnType<typeof createPiiService>;
