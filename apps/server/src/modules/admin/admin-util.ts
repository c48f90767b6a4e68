/** Small helpers the admin services share (the list filters and count cache live in lib/). */
export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** A unique index refused the write (PostgreSQL 23505), whichever driver wrapped it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === '23505') return true;
  }
  return false;
}

/** The filters an export used, for its operation record (`key=value, …`, or 无). */
export const describeFilter = (f: object) =>
  Object.entries(f)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ') || '无';
