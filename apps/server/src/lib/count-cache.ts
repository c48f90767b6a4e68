/**
 * Totals of big lists (50 000 users, millions of audit records) cost a scan per page view,
 * while the rows of a page cost an index walk. A large total is kept for a few seconds and
 * shared by concurrent callers with the same filters; small totals (cheap, and what a
 * narrowed search shows) are always counted afresh, so they stay exact.
 */
export function createCountCache(opts: { ttlMs?: number; exactBelow?: number; maxKeys?: number } = {}) {
  const ttlMs = opts.ttlMs ?? 10_000;
  const exactBelow = opts.exactBelow ?? 1_000;
  const maxKeys = opts.maxKeys ?? 500;
  const entries = new Map<string, { value: Promise<number>; at: number }>();
  return async (key: string, count: () => Promise<number>): Promise<number> => {
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && now - hit.at < ttlMs) return hit.value;
    const value = count();
    entries.set(key, { value, at: now });
    if (entries.size > maxKeys) entries.delete(entries.keys().next().value!);
    try {
      const n = await value;
      if (n < exactBelow) entries.delete(key);
      return n;
    } catch (err) {
      entries.delete(key);
      throw err;
    }
  };
}
export type CountCache = ReturnType<typeof createCountCache>;
