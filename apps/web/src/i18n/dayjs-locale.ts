/**
 * dayjs in the portal's language. Kept out of the first load: the public site formats its dates
 * with Intl (areas/site/site-format.ts); the areas that use dayjs (and antd's date pickers, which
 * need the Chinese locale registered) load this with their texts (see withNamespaces).
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import type { Locale } from '@contest/shared';

export function setDayjsLocale(locale: Locale): void {
  // dayjs's own name for the Chinese locale happens to be the same tag as ours.
  dayjs.locale(locale);
}
