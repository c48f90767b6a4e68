import type { Readable } from 'node:stream';
import {
  ADMIN_MSG,
  EXPERT_ACCOUNT_HOLDS,
  EXPERT_DECLARED_MAX,
  foldOrg,
  isMaskedPii,
  REVIEW_MSG as M,
  REVIEW_ROUNDS,
  TEAM_EXPORT_MAX_ROWS,
  type DeclaredOrgBody,
  type ExpertBody,
  type ExpertCredentials,
  type ExpertImportResult,
  type ExpertListQuery,
  type ExpertOrganisations,
  type ExpertRow,
  type ImportRowError,
  type Page,
  type ReviewRound,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { type DeclaredOrg } from '../../db/schema/experts.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { generatePassword, hashPassword } from '../../lib/password.js';
import { FULL_PII, MASKED_PII, piiNote, unmaskInput, type Pii } from '../../lib/pii.js';
import { batches, beijingDate, beijingTime, writeXlsx, type XlsxColumn } from '../../lib/xlsx-stream.js';
import { describeFilter, iso, isoOrNull, isUniqueViolation } from '../admin/admin-util.js';
import type { AdminActor } from '../admin/admin.guard.js';
import { createAccountReach, type AccountReach } from '../admin/roles/account-reach.js';
import { createRoleRepository } from '../admin/roles/roles.repository.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import type { RevokeReason } from '../auth/session.service.js';
import { COLUMN_OF, buildTemplate, checkCreditCode, checkRows, readSheet, sortErrors, type ImportCandidate } from './experts-import.js';
import { createExpertsRepository, type ExpertDbRow, type ExpertFilter, type ExpertWrite, type ExpertsRepository } from './experts.repository.js';

interface Deps {
  db: Db;
  /** Tests pass their own; by default the module's repository over `db`. */
  repo?: ExpertsRepository;
  /** Ends an account's live sessions (the identity module's session service). */
  revokeAll(accountId: string, reason: RevokeReason, keepSessionId: string | undefined, tx: Db): Promise<void>;
  /** The reach rule (admin/roles/account-reach.ts); by default over the roles of `db`. */
  reach?: AccountReach;
  now: () => Date;
}

/** Codes as people read them: E0001 … E9999, then E10000 and up (EXPERT_CODE_PATTERN allows 4 to 8 digits). */
const formatCode = (n: number) => `E${String(n).padStart(4, '0')}`;

/**
 * The next `count` free codes after the highest E + 4 digits code in use (codes of other
 * shapes, e.g. 8 digits, do not move the counter; every code in use is skipped).
 */
export function nextCodes(inUse: ReadonlySet<string>, count: number): string[] {
  let n = 0;
  for (const c of inUse) if (/^E\d{4}$/.test(c)) n = Math.max(n, Number(c.slice(1)));
  const out: string[] = [];
  while (out.length < count) {
    n += 1;
    const code = formatCode(n);
    if (!inUse.has(code)) out.push(code);
  }
  return out;
}

/** Runs `fn` over `items` with at most `limit` at once (password hashing of an import: argon2 is ~30 ms each). */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * An expert as the console shows it: phone and credit codes as `pii` allows (masked in every
 * answer; in full in an export of a role holding pii:view, and from GET /admin/pii/expert/:id).
 */
export function toExpertRow(r: ExpertDbRow, groups: Partial<Record<ReviewRound, string>> | undefined, pii: Pii = MASKED_PII): ExpertRow {
  return {
    id: r.id,
    code: r.code ?? '',
    username: r.username,
    name: r.name ?? '',
    phone: pii.phone(r.phone),
    organization: r.organization ?? '',
    orgCreditCode: pii.creditCode(r.orgCreditCode),
    title: r.title,
    tracks: r.tracks ?? [],
    declaredOrgs: (r.declaredOrgs ?? []).map((d) => ({ name: d.name, creditCode: pii.creditCode(d.creditCode ?? null) })),
    enabled: r.enabled,
    agreed: r.agreedAt !== null,
    groups: Object.fromEntries(REVIEW_ROUNDS.map((round) => [round, groups?.[round] ?? null])) as Record<ReviewRound, string | null>,
    lastLoginAt: isoOrNull(r.lastLoginAt),
    createdAt: iso(r.createdAt),
  };
}

const EXPORT_COLUMNS: readonly XlsxColumn[] = [
  { header: '专家编号', key: 'code', width: 12 },
  { header: '姓名', key: 'name', width: 14 },
  { header: '手机号', key: 'phone', width: 14 },
  { header: '所在单位', key: 'organization', width: 30 },
  { header: '单位统一社会信用代码', key: 'orgCreditCode', width: 22 },
  { header: '职称', key: 'title', width: 12 },
  { header: '擅长方向', key: 'tracks', width: 36 },
  { header: '回避单位', key: 'declaredOrgs', width: 36 },
  { header: '初赛评审组', key: 'prelimGroup', width: 14 },
  { header: '决赛评审组', key: 'finalGroup', width: 14 },
  { header: '已签署评审协议', key: 'agreed', width: 14 },
  { header: '状态', key: 'enabled', width: 8 },
  { header: '最后登录时间', key: 'lastLoginAt', width: 20 },
  { header: '创建时间', key: 'createdAt', width: 20 },
];

const describeOrgs = (orgs: readonly DeclaredOrg[], pii: Pii) => orgs.map((d) => (d.creditCode ? `${d.name}（${pii.creditCode(d.creditCode)}）` : d.name)).join('；');

/**
 * The form sends back what it was shown: a masked phone or credit code that reads exactly as
 * the stored one masked keeps the stored value (lib/pii.ts); another mask is refused. A
 * declared organisation's code is looked up among the stored ones, the same name first.
 */
function unmaskBody(body: ExpertBody, current: ExpertDbRow | undefined): ExpertBody {
  const stored = current?.declaredOrgs ?? [];
  return {
    ...body,
    phone: unmaskInput(body.phone, current?.phone, MASKED_PII.phone, 'phone'),
    orgCreditCode: unmaskInput(body.orgCreditCode, current?.orgCreditCode, MASKED_PII.creditCode, 'orgCreditCode'),
    declaredOrgs: body.declaredOrgs.map((d, i) => {
      if (!isMaskedPii(d.creditCode)) return d;
      const match =
        stored.find((o) => o.name === d.name && MASKED_PII.creditCode(o.creditCode) === d.creditCode) ??
        stored.find((o) => MASKED_PII.creditCode(o.creditCode) === d.creditCode);
      return { ...d, creditCode: unmaskInput(d.creditCode, match?.creditCode, MASKED_PII.creditCode, `declaredOrgs.${i}.creditCode`) };
    }),
  };
}

/**
 * 专家库 (docs/rules/review.md, "Expert accounts"): expert accounts (realm EXPERT, role EXPERT, username = code in lower case)
 * with their profile and the organisations the conflict rules read. Passwords are generated,
 * shown once and stored only as hashes.
 */
export function createExpertsService({ db, repo = createExpertsRepository(db), revokeAll, reach = createAccountReach(createRoleRepository(db)), now }: Deps) {
  /**
   * Expert accounts within the caller's reach (docs/security.md "Accounts and reach"): an expert
   * reads its groups' projects and files, so whoever creates, edits, enables, disables, imports or
   * resets the password of one must hold what those pages need (EXPERT_ACCOUNT_HOLDS).
   */
  async function assertExpertsWithin(actor: AdminActor, tx: Db) {
    reach.assertWithin(await reach.reachOf(actor, tx), [...EXPERT_ACCOUNT_HOLDS.menuCodes, ...EXPERT_ACCOUNT_HOLDS.buttonCodes]);
  }

  async function view(id: string, tx: Db = db): Promise<ExpertRow> {
    const row = await repo.findById(id, tx);
    if (!row) throw notFound(M.expertNotFound);
    return toExpertRow(row, (await repo.groupsOf([id], tx)).get(id));
  }

  /** The body as stored: tracks known to the TRACK dictionary, credit codes checked like the sign-up's. */
  async function normalise(sent: ExpertBody, current: ExpertDbRow | undefined, tx: Db): Promise<Omit<ExpertWrite, 'code'>> {
    const body = unmaskBody(sent, current);
    const tracks = [...new Set(body.tracks.map((t) => t.trim()))];
    const enabled = new Set((await repo.tracks(false, tx)).map((t) => t.code));
    // A track disabled since it was given stays acceptable on this expert: editing the phone must not fail on it.
    const kept = new Set(current?.tracks ?? []);
    if (tracks.some((t) => !enabled.has(t) && !kept.has(t))) throw badRequest(M.expertTrackInvalid, { field: 'tracks' });
    const own = checkCreditCode(body.orgCreditCode);
    if (own.error) throw badRequest(own.error, { field: 'orgCreditCode' });
    const declaredOrgs: DeclaredOrg[] = body.declaredOrgs.map((d, i) => {
      const code = checkCreditCode(d.creditCode);
      if (code.error) throw badRequest(code.error, { field: `declaredOrgs.${i}.creditCode` });
      return { name: d.name, creditCode: code.value };
    });
    return {
      name: body.name,
      phone: body.phone,
      organization: body.organization,
      orgCreditCode: own.value,
      title: body.title?.trim() || null,
      tracks,
      declaredOrgs,
    };
  }

  async function organisationsOf(expertId: string, tx: Db): Promise<ExpertOrganisations> {
    const row = await repo.findById(expertId, tx);
    if (!row) throw notFound(M.expertNotFound);
    return {
      organization: row.organization ?? '',
      orgCreditCode: row.orgCreditCode ?? null,
      declaredOrgs: (row.declaredOrgs ?? []).map((d) => ({ name: d.name, creditCode: d.creditCode ?? null })),
    };
  }

  /** Wraps a write: unique-index races answer like the pre-checks would. */
  async function write<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await db.transaction(fn);
    } catch (err) {
      if (isUniqueViolation(err)) {
        const text = String((err as { cause?: { constraint?: string }; constraint?: string }).cause?.constraint ?? (err as { constraint?: string }).constraint ?? err);
        if (text.includes('phone')) throw badRequest(M.expertPhoneTaken, { field: 'phone' });
        throw badRequest(M.expertCodeTaken, { field: 'code' });
      }
      throw err;
    }
  }

  async function checkFree(code: string | null, phone: string | null, excludeId: string | undefined, tx: Db) {
    const taken = await repo.taken({ codes: code ? [code] : [], phones: phone ? [phone] : [] }, excludeId, tx);
    if (code && taken.codes.has(code)) throw badRequest(M.expertCodeTaken, { field: 'code' });
    if (phone && taken.phones.has(phone)) throw badRequest(M.expertPhoneTaken, { field: 'phone' });
  }

  /** Rows whose code or phone an existing account already uses. */
  async function takenErrors(candidates: readonly ImportCandidate[], tx: Db): Promise<ImportRowError[]> {
    const codes = candidates.flatMap((c) => (c.code ? [c.code] : []));
    const taken = await repo.taken({ codes, phones: candidates.map((c) => c.phone) }, undefined, tx);
    const errors: ImportRowError[] = [];
    for (const c of candidates) {
      if (c.code && taken.codes.has(c.code)) errors.push({ row: c.row, column: COLUMN_OF.code, reason: M.expertCodeTaken });
      if (taken.phones.has(c.phone)) errors.push({ row: c.row, column: COLUMN_OF.phone, reason: M.expertPhoneTaken });
    }
    return errors;
  }

  const credentials = (id: string, input: ExpertWrite, password: string): ExpertCredentials => ({
    id,
    code: input.code,
    name: input.name,
    username: input.code.toLowerCase(),
    password,
  });

  return {
    view,

    /** `pii`: the caller's view of personal information; rows are masked either way, it decides how phones are searched. */
    async list(q: ExpertListQuery, pii: Pii): Promise<Page<ExpertRow>> {
      const { rows, total } = await repo.page(q, pii.full);
      const groups = await repo.groupsOf(rows.map((r) => r.id));
      return { list: rows.map((r) => toExpertRow(r, groups.get(r.id))), page: q.page, size: q.size, total };
    },

    async create(actor: AdminActor, body: ExpertBody): Promise<ExpertCredentials> {
      const password = generatePassword();
      const passwordHash = await hashPassword(password);
      const created = await write(async (tx) => {
        await assertExpertsWithin(actor, tx);
        await repo.lockCodes(tx);
        const fields = await normalise(body, undefined, tx);
        await checkFree(body.code ?? null, fields.phone, undefined, tx);
        const code = body.code ?? nextCodes(await repo.codesInUse(tx), 1)[0]!;
        const input: ExpertWrite = { ...fields, code };
        const [id] = await repo.insertMany([{ input, passwordHash }], now(), tx);
        await recordOperation(tx, actor, {
          action: 'expert:edit',
          targetType: 'expert',
          targetId: id!,
          summary: `新增专家 ${code}（${input.name}），单位 ${input.organization}，擅长方向 ${input.tracks.join('、')}`,
        });
        return credentials(id!, input, password);
      });
      return created;
    },

    /** GET /expert/organisations: the signed-in expert's own and declared organisations (their own data, in full). */
    ownOrganisations: (expertId: string) => organisationsOf(expertId, db),

    /**
     * POST /expert/organisations (docs/rules/review.md, "Conflicts of interest"): the expert adds an
     * organisation to their declared ones, as an admin's edit would; effective at once (the conflict
     * rule reads it on every call, so the projects of that organisation leave their lists, a draft
     * there stays unread as after an admin's declaration). The operation record names the expert.
     * The account row is locked, so two declarations at once both land (or the second is refused as
     * a duplicate or past the limit).
     */
    async declareOrganisation(actor: OperationActor, body: DeclaredOrgBody): Promise<ExpertOrganisations> {
      const expertId = actor.auth.accountId;
      return db.transaction(async (tx) => {
        const current = await repo.lockById(expertId, tx);
        if (!current) throw notFound(M.expertNotFound);
        const code = checkCreditCode(body.creditCode);
        if (code.error) throw badRequest(code.error, { field: 'creditCode' });
        const added: DeclaredOrg = { name: body.name, creditCode: code.value };
        const stored = current.declaredOrgs ?? [];
        const folded = foldOrg(added);
        const same = stored.map(foldOrg).some((o) => (folded.code && o.code ? folded.code === o.code : o.name === folded.name));
        if (same) throw badRequest(M.expertOrgDeclaredAlready, { field: 'name' });
        if (stored.length >= EXPERT_DECLARED_MAX) throw badRequest(M.expertDeclaredTooMany, { field: 'name' });
        await repo.setDeclaredOrgs(expertId, [...stored, added], now(), tx);
        await recordOperation(tx, actor, {
          action: 'expert:declare-org',
          targetType: 'expert',
          targetId: expertId,
          summary: `专家 ${current.code ?? ''}（${current.name ?? ''}）自行申报回避单位：${describeOrgs([added], MASKED_PII)}`,
        });
        return organisationsOf(expertId, tx);
      });
    },

    async update(actor: AdminActor, id: string, body: ExpertBody): Promise<ExpertRow> {
      await write(async (tx) => {
        const current = await repo.lockById(id, tx);
        if (!current) throw notFound(M.expertNotFound);
        await assertExpertsWithin(actor, tx);
        const code = body.code ?? current.code;
        const codeChanged = code !== current.code;
        const fields = await normalise(body, current, tx);
        if (codeChanged || fields.phone !== current.phone) {
          await repo.lockCodes(tx);
          await checkFree(codeChanged ? code : null, fields.phone !== current.phone ? fields.phone : null, id, tx);
        }
        const input: ExpertWrite = { ...fields, code: code ?? nextCodes(await repo.codesInUse(tx), 1)[0]! };
        const changes: string[] = [];
        const note = (label: string, before: string | null | undefined, after: string | null | undefined) => {
          if ((before ?? '') !== (after ?? '')) changes.push(`${label} ${before || '无'} -> ${after || '无'}`);
        };
        note('编号', current.code, input.code);
        note('姓名', current.name, input.name);
        // The record says what changed without the values in full (it is read by auditors, not by pii:view holders).
        note('手机号', MASKED_PII.phone(current.phone), MASKED_PII.phone(input.phone));
        note('单位', current.organization, input.organization);
        note('信用代码', MASKED_PII.creditCode(current.orgCreditCode), MASKED_PII.creditCode(input.orgCreditCode));
        note('职称', current.title, input.title);
        note('擅长方向', (current.tracks ?? []).join('、'), input.tracks.join('、'));
        note('回避单位', describeOrgs(current.declaredOrgs ?? [], MASKED_PII), describeOrgs(input.declaredOrgs, MASKED_PII));
        await repo.update(id, input, now(), tx);
        await recordOperation(tx, actor, {
          action: 'expert:edit',
          targetType: 'expert',
          targetId: id,
          summary: `编辑专家 ${input.code}：${changes.join('；') || '无变化'}`,
        });
      });
      return view(id);
    },

    async setEnabled(actor: AdminActor, id: string, enabled: boolean): Promise<ExpertRow> {
      await write(async (tx) => {
        const current = await repo.lockById(id, tx);
        if (!current) throw notFound(M.expertNotFound);
        await assertExpertsWithin(actor, tx);
        await repo.setEnabled(id, enabled, now(), tx);
        // Disabling takes effect now, not when the session would have expired.
        if (!enabled) await revokeAll(id, 'DISABLED', undefined, tx);
        await recordOperation(tx, actor, {
          action: 'expert:disable',
          targetType: 'expert',
          targetId: id,
          summary: `${enabled ? '启用' : '禁用'}专家 ${current.code ?? ''}（${current.name ?? ''}）`,
        });
      });
      return view(id);
    },

    async resetPassword(actor: AdminActor, id: string): Promise<ExpertCredentials> {
      const password = generatePassword();
      const passwordHash = await hashPassword(password);
      return write(async (tx) => {
        const current = await repo.lockById(id, tx);
        if (!current) throw notFound(M.expertNotFound);
        await assertExpertsWithin(actor, tx);
        await repo.setPassword(id, passwordHash, now(), tx);
        await revokeAll(id, 'PASSWORD_CHANGED', undefined, tx);
        await recordOperation(tx, actor, {
          action: 'expert:reset-password',
          targetType: 'expert',
          targetId: id,
          summary: `重置专家 ${current.code ?? ''}（${current.name ?? ''}）的密码`,
        });
        return { id, code: current.code ?? '', name: current.name ?? '', username: current.username, password };
      });
    },

    async template(): Promise<{ content: Buffer; fileName: string }> {
      return { content: await buildTemplate(await repo.tracks(false)), fileName: '专家导入模板.xlsx' };
    },

    /**
     * All or nothing: every row is checked (its own cells, the other rows, the accounts in the
     * database); any problem answers 400 importHasErrors with the whole row report and writes
     * nothing. A clean sheet is written in one transaction, with generated codes and passwords.
     */
    /** The reach rule alone: the import route asks before it reads the upload (nothing of it is worth reading otherwise). */
    assertWithinReach: (actor: AdminActor) => assertExpertsWithin(actor, db),

    async import(actor: AdminActor, content: Buffer): Promise<ExpertImportResult> {
      await assertExpertsWithin(actor, db);
      const rows = await readSheet(content);
      const { candidates, errors } = checkRows(rows, await repo.tracks(false));
      const found = sortErrors([...errors, ...(await takenErrors(candidates, db))]);
      if (found.length) throw badRequest(M.importHasErrors, { rows: found });

      const passwords = candidates.map(() => generatePassword());
      const hashes = await mapLimit(passwords, 4, (p) => hashPassword(p, { bulk: true }));
      return write(async (tx) => {
        await repo.lockCodes(tx);
        // Someone may have taken a code or phone since the check above.
        const late = sortErrors(await takenErrors(candidates, tx));
        if (late.length) throw badRequest(M.importHasErrors, { rows: late });
        const inUse = await repo.codesInUse(tx);
        for (const c of candidates) if (c.code) inUse.add(c.code);
        const generated = nextCodes(inUse, candidates.filter((c) => !c.code).length);
        const inputs: ExpertWrite[] = candidates.map(({ row: _row, code, ...fields }) => ({ ...fields, code: code ?? generated.shift()! }));
        const ids = await repo.insertMany(inputs.map((input, i) => ({ input, passwordHash: hashes[i]! })), now(), tx);
        await recordOperation(tx, actor, {
          action: 'expert:import',
          targetType: 'expert',
          summary: `导入专家 ${inputs.length} 名：${inputs.map((e) => `${e.code}（${e.name}）`).join('、')}`,
        });
        return { imported: inputs.length, credentials: inputs.map((input, i) => credentials(ids[i]!, input, passwords[i]!)) };
      });
    },

    async export(actor: OperationActor, filter: ExpertFilter, pii: Pii): Promise<{ stream: Readable; fileName: string }> {
      const total = await repo.count(filter, pii.full);
      if (total > TEAM_EXPORT_MAX_ROWS) throw badRequest(ADMIN_MSG.exportTooLarge);
      await db.transaction((tx) =>
        recordOperation(tx, actor, { action: 'expert:export', targetType: 'expert', summary: `导出专家 ${total} 名，筛选条件：${describeFilter(filter)}${piiNote(pii)}` }),
      );
      const trackName = new Map((await repo.tracks(true)).map((t) => [t.code, t.name]));
      const stream = writeXlsx([
        {
          name: '专家库',
          columns: EXPORT_COLUMNS,
          rows: (async function* () {
            for await (const batch of batches((offset, limit) => repo.batch(filter, offset, limit, pii.full), total)) {
              const groups = await repo.groupsOf(batch.map((r) => r.id));
              for (const r of batch) {
                const e = toExpertRow(r, groups.get(r.id), pii);
                yield {
                  code: e.code,
                  name: e.name,
                  phone: e.phone ?? '',
                  organization: e.organization,
                  orgCreditCode: e.orgCreditCode ?? '',
                  title: e.title ?? '',
                  tracks: e.tracks.map((t) => trackName.get(t) ?? t).join('；'),
                  // Already as `pii` allows (toExpertRow).
                  declaredOrgs: describeOrgs(e.declaredOrgs, FULL_PII),
                  prelimGroup: e.groups.PRELIMINARY ?? '',
                  finalGroup: e.groups.FINAL ?? '',
                  agreed: e.agreed ? '是' : '否',
                  enabled: e.enabled ? '启用' : '禁用',
                  lastLoginAt: beijingTime(r.lastLoginAt),
                  createdAt: beijingTime(r.createdAt),
                };
              }
            }
          })(),
        },
      ]);
      return { stream, fileName: `专家库-${beijingDate(now())}.xlsx` };
    },
  };
}
export type ExpertsService = ReturnType<typeof createExpertsService>;
