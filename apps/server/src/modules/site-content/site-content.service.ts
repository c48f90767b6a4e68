import type { SiteBlock, SiteContentKey } from '@contest/shared';
import { sanitizeHtml } from '../../lib/sanitize-html.js';
import type { SiteContentRepository } from './site-content.repository.js';

export function createSiteContentService(repo: SiteContentRepository) {
  async function blocks(keys: SiteContentKey[]): Promise<Record<string, SiteBlock>> {
    const rows = new Map((await repo.find(keys)).map((r) => [r.key, r]));
    const out: Record<string, SiteBlock> = {};
    for (const key of keys) {
      const row = rows.get(key);
      // A known block nobody wrote yet renders empty rather than failing the page.
      out[key] = row ? { key, title: row.title, body: sanitizeHtml(row.body), updatedAt: row.updatedAt.toISOString() } : { key, title: '', body: '', updatedAt: null };
    }
    return out;
  }
  return {
    blocks,
    async block(key: SiteContentKey): Promise<SiteBlock> {
      return (await blocks([key]))[key]!;
    },
  };
}
export type SiteContentService = ReturnType<typeof createSiteContentService>;
