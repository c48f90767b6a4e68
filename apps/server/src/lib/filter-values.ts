/**
 * Values of list filters, turned into SQL by lib/list-query.ts and the repositories.
 *
 * Filters arrive as Beijing wall-clock dates (`YYYY-MM-DD`) or times (`YYYY-MM-DD HH:mm:ss`),
 * the formats of docs/rules/screens.md, "Dates, sizes, toasts". They become instants here; ranges are [from, toExclusive).
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

/** A Beijing calendar month `YYYY-MM` as [its first instant, the next month's first instant). */
export function monthBounds(month: string): [Date, Date] {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
  return [new Date(`${month}-01T00:00:00${BEIJING}`), new Date(`${next}-01T00:00:00${BEIJING}`)];
}

/** LIKE pattern for "contains", with the user's % and _ taken literally. */
export const containsPattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
