/**
 * Filters arrive as Beijing wall-clock dates (`YYYY-MM-DD`) or times (`YYYY-MM-DD HH:mm:ss`),
 * the formats of spec section 9. They become instants here; ranges are [from, toExclusive).
 */
const BEIJING = '+08:00';

export function rangeStart(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  return new Date(value.length === 10 ? `${value}T00:00:00${BEIJING}` : `${value.replace(' ', 'T')}${BEIJING}`);
}

/** A bare date covers its whole day; a time covers its whole second. */
export function rangeEndExclusive(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const start = rangeStart(value)!;
  return new Date(start.getTime() + (value.length === 10 ? 86_400_000 : 1000));
}

export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** LIKE pattern for "contains", with the user's % and _ taken literally. */
export const containsPattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A unique index refused the write (PostgreSQL 23505), whichever driver wrapped it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === '23505') return true;
  }
  return false;
}

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

/** The filters an export used, for its operation record (`key=value, …`, or 无). */
export const describeFilter = (f: object) =>
  Object.entries(f)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ') || '无';
