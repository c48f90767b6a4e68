import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLocale, initI18n } from '../i18n';
import { beijingTime, beijingTimeLabel } from './beijing-time';

beforeAll(() => {
  initI18n();
});

afterEach(() => {
  changeLocale('zh-cn');
});

describe('Beijing time', () => {
  it('shows an ISO time on the Beijing clock whatever the device zone, to the unit asked', () => {
    expect(beijingTime('2025-06-30T16:00:00.000Z')).toBe('2025-07-01 00:00:00');
    expect(beijingTime('2025-06-30T16:05:09Z', 'minute')).toBe('2025-07-01 00:05');
    expect(beijingTime('2025-06-30T16:05:09+00:00', 'date')).toBe('2025-07-01');
    expect(beijingTime(null)).toBe('');
    expect(beijingTime('not a time')).toBe('');
  });

  it('says it is Beijing time in the page language', () => {
    changeLocale('zh-cn');
    expect(beijingTimeLabel('2025-06-30T16:00:00.000Z', 'minute')).toBe('2025-07-01 00:00（北京时间）');
    changeLocale('en');
    expect(beijingTimeLabel('2025-06-30T16:00:00.000Z', 'minute')).toBe('2025-07-01 00:00 (Beijing time)');
    expect(beijingTimeLabel(undefined)).toBe('');
  });
});
