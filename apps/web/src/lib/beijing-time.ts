import { i18n } from '../i18n';

/**
 * Beijing time (UTC+8, no daylight saving), the contest's clock: every deadline, schedule and
 * audit time is shown in it, whatever the device's zone, and says so (docs/decisions.md,
 * "English"; docs/rules/screens.md, "Dates, sizes, toasts"). Zod-free on purpose: the home page
 * may use it without the shared package's schemas.
 */
const LENGTH = { date: 10, minute: 16, second: 19 } as const;
export type BeijingUnit = keyof typeof LENGTH;

/** `YYYY-MM-DD[ HH:mm[:ss]]` of an ISO time in Beijing time; '' when empty or unreadable. */
export function beijingTime(iso: string | null | undefined, unit: BeijingUnit = 'second'): string {
  const ms = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(ms) ? '' : new Date(ms + 8 * 3600_000).toISOString().slice(0, LENGTH[unit]).replace('T', ' ');
}

/** The same, marked as Beijing time in the page's language (`…（北京时间）` / `… (Beijing time)`); '' when empty. */
export function beijingTimeLabel(iso: string | null | undefined, unit: BeijingUnit = 'second'): string {
  const time = beijingTime(iso, unit);
  return time && i18n.t('common:beijingTime', { time });
}
