import {
  CONTENT_MSG,
  SITE_CONTENT_KEYS,
  type SiteBlock,
  type SiteBlockAdmin,
  type SiteBlockInput,
  type SiteContentKey,
  type Locale,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize-html.js';
import { isoOrNull } from '../admin/admin-util.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import type { SiteContentRepository, SiteContentRow } from './site-content.repository.js';

const isKnownKey = (key: string): key is SiteContentKey => (SITE_CONTENT_KEYS as readonly string[]).includes(key);

function toAdmin(key: SiteContentKey, row: (SiteContentRow & { editorName?: string | null }) | undefined): SiteBlockAdmin {
  if (!row) return { key, title: '', body: '', titleEn: null, bodyEn: null, updatedAt: null, updatedBy: null };
  return {
    key,
    title: row.title,
    body: sanitizeHtml(row.body),
    titleEn: row.titleEn,
    bodyEn: row.bodyEn ? sanitizeHtml(row.bodyEn) : null,
    updatedAt: isoOrNull(row.updatedAt),
    updatedBy: row.editorName ?? null,
  };
}

/** Blocks of the public site (home page, /sign-guide) and their editing from 内容管理 (docs/rules/content.md, "Site blocks"). */
export function createSiteContentService(repo: SiteContentRepository, db: Db) {
  /** English pages get each English text that was written, the Chinese one otherwise. */
  async function blocks(keys: SiteContentKey[], locale: Locale = 'zh-cn'): Promise<Record<string, SiteBlock>> {
    const rows = new Map((await repo.find(keys)).map((r) => [r.key, r]));
    const en = locale === 'en';
    const out: Record<string, SiteBlock> = {};
    for (const key of keys) {
      const row = rows.get(key);
      // A known block nobody wrote yet renders empty rather than failing the page.
      out[key] = row
        ? {
            key,
            title: (en && row.titleEn) || row.title,
            body: sanitizeHtml((en && row.bodyEn) || row.body),
            updatedAt: row.updatedAt.toISOString(),
          }
        : { key, title: '', body: '', updatedAt: null };
    }
    return out;
  }

  return {
    blocks,
    async block(key: SiteContentKey, locale: Locale = 'zh-cn'): Promise<SiteBlock> {
      return (await blocks([key], locale))[key]!;
    },

    /** GET /admin/site-content: every known block in SITE_CONTENT_KEYS order (rows of unknown keys are left out). */
    async adminList(): Promise<SiteBlockAdmin[]> {
      const rows = new Map((await repo.findAllWithEditor()).map((r) => [r.key, r]));
      return SITE_CONTENT_KEYS.map((key) => toAdmin(key, rows.get(key)));
    },

    /** PUT /admin/site-content/{key}: the public pages read the block on every request, so they change at once. */
    async save(actor: OperationActor, key: string, body: SiteBlockInput): Promise<SiteBlockAdmin> {
      if (!isKnownKey(key)) throw notFound(CONTENT_MSG.siteContentNotFound);
      return db.transaction(async (tx) => {
        const before = await repo.lock(key, tx);
        await repo.upsert(tx, { key, title: body.title, body: body.body, titleEn: body.titleEn, bodyEn: body.bodyEn, updatedBy: actor.auth.accountId });
        const changed = (
          [
            ['标题', before?.title ?? '', body.title],
            ['英文标题', before?.titleEn ?? '', body.titleEn ?? ''],
          ] as const
        )
          .filter(([, a, b]) => a !== b)
          .map(([label, a, b]) => `${label} ${a || '无'} -> ${b || '无'}`);
        if ((before?.body ?? '') !== sanitizeHtml(body.body)) changed.push('正文已修改');
        if ((before?.bodyEn ?? '') !== (body.bodyEn ? sanitizeHtml(body.bodyEn) : '')) changed.push('英文正文已修改');
        await recordOperation(tx, actor, {
          action: 'news:edit',
          targetType: 'site_content',
          targetId: key,
          summary: `编辑站点内容 ${key}：${changed.join('；') || '无变化'}`,
        });
        const saved = (await repo.findAllWithEditor(tx)).find((r) => r.key === key);
        return toAdmin(key, saved);
      });
    },
  };
}
export type SiteContentService = ReturnType<typeof createSiteContentService>;
