/** `YYYY-MM-DD` of the Beijing day, as the public lists date an article (the server's `date`). */
export function beijingDay(iso: string): string {
  return new Date(new Date(iso).getTime() + 8 * 3600_000).toISOString().slice(0, 10);
}
