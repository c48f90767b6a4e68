/**
 * Certificate templates (docs/certificates.md, "Templates"): every save is a new version, kept
 * and previewable; documents name the version they were made from. Previews print a draft or a
 * saved version for a real project or expert (or a sample) and store nothing.
 */
import {
  CERTIFICATE_KIND_NAMES,
  CERTIFICATE_MSG as M,
  isExpertCertificateKind,
  type CertificateKind,
  type CertificatePreviewBody,
  type CertificatePreviewRecord,
  type CertificatePreviewRecordQuery,
  type CertificateTemplateBody,
  type CertificateTemplateDetail,
  type CertificateTemplateListQuery,
  type CertificateTemplateRow,
  type CertificateTemplateUpdateBody,
  type CertificateTemplateVersion,
  type CertificateTemplateVersionRow,
  type Page,
  type ReviewRound,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import type { CertificateFieldJson } from '../../db/schema/certificates.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { renderCertificatePdf, type CertificateLayout } from './certificate-pdf.js';
import {
  PROMOTION_AWARD,
  backgroundAttachment,
  backgroundBytes,
  beijingYear,
  memberNames,
  printData,
  toVersion,
  type CertificatesDeps,
  type HolderPrint,
} from './certificates.common.js';
import type { TemplateRow, TemplateVersionRow } from './certificates.repository.js';
import { previewSerial } from './serial.js';

const SAMPLE: HolderPrint = {
  team: '样例队伍',
  project: '医保基金智能监管平台',
  organisation: '示例大学附属医院',
  members: '张三、李四、王五',
  award: '',
  expertName: '赵六',
};

/** Stored fields: defaults filled in by the schema, `text` only on text fields. */
const storedFields = (fields: CertificateTemplateBody['fields']): CertificateFieldJson[] =>
  fields.map((f) => ({ key: f.key, x: f.x, y: f.y, width: f.width, fontSize: f.fontSize, align: f.align, bold: f.bold, color: f.color.toLowerCase(), ...(f.key === 'text' ? { text: f.text?.trim() ?? '' } : {}) }));

export function createTemplatesService(deps: CertificatesDeps) {
  const { db, repo } = deps;

  async function detailOf(tx: Db, template: TemplateRow): Promise<CertificateTemplateDetail> {
    const version = await repo.version(tx, template.id, template.currentVersion);
    if (!version) throw notFound(M.templateVersionNotFound);
    return { ...(await versionOf(tx, version)), id: template.id, enabled: template.enabled, updatedAt: template.updatedAt.toISOString() };
  }

  async function versionOf(tx: Db, version: TemplateVersionRow): Promise<CertificateTemplateVersion> {
    const bg = version.backgroundId ? await repo.attachmentById(tx, version.backgroundId) : null;
    return toVersion(version, bg);
  }

  async function backgroundIdOf(tx: Db, body: CertificateTemplateBody): Promise<string | null> {
    if (!body.background) return null;
    return (await backgroundAttachment(deps, tx, body.background)).id;
  }

  const actorName = (actor: OperationActor) => actor.auth.username;

  /** A saved version's row: what the template looked like, who saved it and when. */
  const versionRow = (actor: OperationActor, templateId: string, version: number, body: CertificateTemplateBody, awardLevel: string | null, backgroundId: string | null, now: Date) => ({
    templateId,
    version,
    name: body.name,
    kind: body.kind,
    awardLevel,
    pageSize: body.pageSize,
    orientation: body.orientation,
    backgroundId,
    fields: storedFields(body.fields),
    createdBy: actor.auth.accountId,
    createdByName: actorName(actor),
    createdAt: now,
  });

  /** What a preview prints for the record (a project or an expert), or the sample. */
  async function holderFor(kind: CertificateKind, awardLevel: string | null, recordId: string | undefined, round: ReviewRound | undefined): Promise<{ holder: HolderPrint; round: ReviewRound }> {
    const defaultRound: ReviewRound = round ?? (kind === 'PROMOTION' ? 'PRELIMINARY' : 'FINAL');
    const sampleAward = kind === 'AWARD' ? (awardLevel ?? '一等奖') : kind === 'PROMOTION' ? PROMOTION_AWARD : '';
    if (!recordId) return { holder: { ...SAMPLE, award: sampleAward }, round: defaultRound };
    if (isExpertCertificateKind(kind)) {
      const [expert] = await repo.experts(db, [recordId]);
      if (!expert) throw badRequest(M.recordNotFound, { field: 'recordId', reason: 'RECORD_NOT_FOUND' });
      return { holder: { ...SAMPLE, team: '', project: '', members: '', award: '', organisation: expert.organization ?? '', expertName: expert.name?.trim() || expert.username }, round: defaultRound };
    }
    const project = await repo.project(db, recordId);
    if (!project) throw badRequest(M.recordNotFound, { field: 'recordId', reason: 'RECORD_NOT_FOUND' });
    let award = sampleAward;
    if (kind === 'AWARD') {
      const version = await repo.publishedVersion(db, 'FINAL');
      const entry = version ? await repo.entryOf(db, version.id, recordId) : null;
      award = entry?.awardName ?? sampleAward;
    }
    return {
      holder: { team: project.teamName, project: project.projectName, organisation: project.orgName, members: memberNames(project), award, expertName: '' },
      round: defaultRound,
    };
  }

  async function render(layout: CertificateLayout & { kind: CertificateKind; awardLevel: string | null }, backgroundId: string | null, recordId: string | undefined, round: ReviewRound | undefined): Promise<Buffer> {
    const { holder, round: printRound } = await holderFor(layout.kind, layout.awardLevel, recordId, round);
    const now = deps.now();
    const settings = await deps.settingsOf();
    const background = await backgroundBytes(deps, db, backgroundId);
    return renderCertificatePdf(layout, background, printData(holder, settings, printRound, now, previewSerial(beijingYear(now)), deps.publicOrigin));
  }

  return {
    async list(q: CertificateTemplateListQuery): Promise<Page<CertificateTemplateRow>> {
      const { rows, total } = await repo.templatePage(q);
      const list = await Promise.all(
        rows.map(async ({ template: t, documentCount }) => {
          const version = await repo.version(db, t.id, t.currentVersion);
          return {
            id: t.id,
            name: t.name,
            kind: t.kind,
            awardLevel: t.awardLevel,
            pageSize: version?.pageSize ?? 'A4',
            orientation: version?.orientation ?? 'LANDSCAPE',
            enabled: t.enabled,
            version: t.currentVersion,
            documentCount,
            updatedAt: t.updatedAt.toISOString(),
            updatedBy: t.updatedByName,
          } satisfies CertificateTemplateRow;
        }),
      );
      return { list, page: q.page, size: q.size, total };
    },

    async detail(id: string): Promise<CertificateTemplateDetail> {
      const template = await repo.template(db, id);
      if (!template) throw notFound(M.templateNotFound);
      return detailOf(db, template);
    },

    async create(actor: OperationActor, body: CertificateTemplateBody): Promise<CertificateTemplateDetail> {
      return db.transaction(async (tx) => {
        const backgroundId = await backgroundIdOf(tx, body);
        const now = deps.now();
        const template = await repo.insertTemplate(tx, {
          name: body.name,
          kind: body.kind,
          awardLevel: body.kind === 'AWARD' ? (body.awardLevel ?? null) : null,
          currentVersion: 1,
          updatedBy: actor.auth.accountId,
          updatedByName: actorName(actor),
          createdAt: now,
          updatedAt: now,
        });
        await repo.insertVersion(tx, versionRow(actor, template.id, 1, body, template.awardLevel, backgroundId, now));
        await recordOperation(tx, actor, {
          action: 'certificate:manage',
          targetType: 'certificate_template',
          targetId: template.id,
          summary: `新增证书模板「${body.name}」（${CERTIFICATE_KIND_NAMES[body.kind]}），版本 1`,
        });
        return detailOf(tx, template);
      });
    },

    /** A new version; the kind may not change (documents of one template are of one kind). */
    async update(actor: OperationActor, id: string, body: CertificateTemplateUpdateBody): Promise<CertificateTemplateDetail> {
      return db.transaction(async (tx) => {
        const current = await repo.template(tx, id, true);
        if (!current) throw notFound(M.templateNotFound);
        if (body.baseVersion !== undefined && body.baseVersion !== current.currentVersion) {
          throw badRequest(M.templateChanged, { reason: 'STALE', version: current.currentVersion });
        }
        if (body.kind !== current.kind) throw badRequest(M.kindInvalid, { field: 'kind', reason: 'KIND_FIXED' });
        const backgroundId = await backgroundIdOf(tx, body);
        const now = deps.now();
        const version = current.currentVersion + 1;
        const awardLevel = body.kind === 'AWARD' ? (body.awardLevel ?? null) : null;
        await repo.insertVersion(tx, versionRow(actor, id, version, body, awardLevel, backgroundId, now));
        const template = await repo.updateTemplate(tx, id, {
          name: body.name,
          awardLevel,
          currentVersion: version,
          updatedBy: actor.auth.accountId,
          updatedByName: actorName(actor),
          updatedAt: now,
        });
        await recordOperation(tx, actor, {
          action: 'certificate:manage',
          targetType: 'certificate_template',
          targetId: id,
          summary: `修改证书模板「${body.name}」，保存为版本 ${version}`,
        });
        return detailOf(tx, template);
      });
    },

    async setEnabled(actor: OperationActor, id: string, enabled: boolean): Promise<CertificateTemplateDetail> {
      return db.transaction(async (tx) => {
        const current = await repo.template(tx, id, true);
        if (!current) throw notFound(M.templateNotFound);
        const template = await repo.updateTemplate(tx, id, { enabled, updatedAt: deps.now(), updatedBy: actor.auth.accountId, updatedByName: actorName(actor) });
        await recordOperation(tx, actor, {
          action: 'certificate:manage',
          targetType: 'certificate_template',
          targetId: id,
          summary: `${enabled ? '启用' : '停用'}证书模板「${current.name}」`,
        });
        return detailOf(tx, template);
      });
    },

    async versions(id: string): Promise<CertificateTemplateVersionRow[]> {
      const template = await repo.template(db, id);
      if (!template) throw notFound(M.templateNotFound);
      const rows = await repo.versions(id);
      return rows.map(({ version: v, documentCount }) => ({ version: v.version, name: v.name, createdAt: v.createdAt.toISOString(), createdBy: v.createdByName, documentCount }));
    },

    async version(id: string, n: number): Promise<CertificateTemplateVersion> {
      const version = await repo.version(db, id, n);
      if (!version) throw notFound(M.templateVersionNotFound);
      return versionOf(db, version);
    },

    /** A draft printed for a record; nothing is stored. */
    async preview(body: CertificatePreviewBody): Promise<Buffer> {
      const t = body.template;
      const backgroundId = t.background ? (await backgroundAttachment(deps, db, t.background)).id : null;
      return render(
        { kind: t.kind, awardLevel: t.kind === 'AWARD' ? (t.awardLevel ?? null) : null, pageSize: t.pageSize, orientation: t.orientation, fields: storedFields(t.fields) },
        backgroundId,
        body.recordId,
        body.round,
      );
    },

    async previewVersion(id: string, n: number, q: { recordId?: string | undefined; round?: ReviewRound | undefined }): Promise<Buffer> {
      const v = await repo.version(db, id, n);
      if (!v) throw notFound(M.templateVersionNotFound);
      return render({ kind: v.kind, awardLevel: v.awardLevel, pageSize: v.pageSize, orientation: v.orientation, fields: v.fields }, v.backgroundId, q.recordId, q.round);
    },

    async previewRecords(q: CertificatePreviewRecordQuery): Promise<CertificatePreviewRecord[]> {
      if (isExpertCertificateKind(q.kind)) {
        return (await repo.previewExperts(q.keyword)).map((e) => ({ id: e.id, label: e.name?.trim() ? `${e.name}（${e.username}）` : e.username }));
      }
      return (await repo.previewProjects(q.keyword)).map((p) => ({ id: p.id, label: `${p.teamName || '—'} · ${p.projectName}` }));
    },
  };
}
export type TemplatesService = ReturnType<typeof createTemplatesService>;
