import { describe, expect, it } from 'vitest';
import { PRELIM_FILE_MAX_BYTES } from '@contest/shared';
import {
  bytesPerSecond,
  deadlineIsTight,
  formatDuration,
  formatSpeed,
  planUploads,
  secondsFor,
  secondsUntil,
} from './speed-estimate';

const MB = 1024 * 1024;

describe('speed arithmetic', () => {
  it('measures bytes per second, and nothing from an empty or instant transfer', () => {
    expect(bytesPerSecond(4 * MB, 8000)).toBe(0.5 * MB);
    expect(bytesPerSecond(0, 1000)).toBeNull();
    expect(bytesPerSecond(MB, 0)).toBeNull();
    expect(bytesPerSecond(Number.NaN, 10)).toBeNull();
  });

  it('shows speeds with two significant digits, whole numbers from 10 MB/s', () => {
    expect(formatSpeed(0.5 * MB)).toBe('0.5 MB/s');
    expect(formatSpeed(0.523 * MB)).toBe('0.52 MB/s');
    expect(formatSpeed(5.34 * MB)).toBe('5.3 MB/s');
    expect(formatSpeed(48.6 * MB)).toBe('49 MB/s');
    expect(formatSpeed(0.0042 * MB)).toBe('0.0042 MB/s');
  });

  it('rounds file times up, at least a second for any file', () => {
    expect(secondsFor(180 * MB, 0.5 * MB)).toBe(360);
    expect(secondsFor(1, 10 * MB)).toBe(1);
    expect(secondsFor(0, MB)).toBe(0);
    expect(secondsFor(MB, 0)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('formatDuration', () => {
  it.each([
    [0.2, '1 秒', '1 second'],
    [45, '45 秒', '45 seconds'],
    [60, '1 分钟', '1 minute'],
    [61, '2 分钟', '2 minutes'],
    [360, '6 分钟', '6 minutes'],
    [3599, '1 小时', '1 hour'],
    [3600, '1 小时', '1 hour'],
    [3601, '1 小时 1 分钟', '1 hour 1 minute'],
    [2 * 3600 + 5 * 60, '2 小时 5 分钟', '2 hours 5 minutes'],
  ])('%s s reads "%s" / "%s"', (seconds, zh, en) => {
    expect(formatDuration(seconds, 'zh-cn')).toBe(zh);
    expect(formatDuration(seconds, 'en')).toBe(en);
  });

  it('says so when the speed gives no end', () => {
    expect(formatDuration(Number.POSITIVE_INFINITY, 'zh-cn')).toBe('很长时间');
    expect(formatDuration(Number.POSITIVE_INFINITY, 'en')).toBe('a very long time');
  });
});

describe('planUploads', () => {
  it('times each kind at the ceilings in force, and a full set of one file per kind', () => {
    const limits = { application: 50 * MB, presentation: 100 * MB, video: 180 * MB, other: 20 * MB };
    const plan = planUploads(limits, 0.5 * MB);
    expect(plan.kinds.map((k) => [k.kind, k.maxBytes, k.seconds])).toEqual([
      ['application', 50 * MB, 100],
      ['presentation', 100 * MB, 200],
      ['video', 180 * MB, 360],
      ['other', 20 * MB, 40],
    ]);
    expect(plan.totalBytes).toBe(350 * MB);
    expect(plan.totalSeconds).toBe(700);
  });

  it('falls back to the default ceilings when the form has none', () => {
    const plan = planUploads(null, MB);
    expect(plan.kinds.map((k) => k.maxBytes)).toEqual([
      PRELIM_FILE_MAX_BYTES.application,
      PRELIM_FILE_MAX_BYTES.presentation,
      PRELIM_FILE_MAX_BYTES.video,
      PRELIM_FILE_MAX_BYTES.other,
    ]);
  });
});

describe('the deadline check', () => {
  const now = Date.parse('2025-06-30T10:00:00Z');

  it('counts seconds to the deadline; none without one', () => {
    expect(secondsUntil('2025-06-30T11:00:00Z', now)).toBe(3600);
    expect(secondsUntil('2025-06-30T09:00:00Z', now)).toBe(-3600);
    expect(secondsUntil(null, now)).toBeNull();
    expect(secondsUntil('not a date', now)).toBeNull();
  });

  it('warns when the deadline is nearer than twice the upload time, and only before it', () => {
    expect(deadlineIsTight(3600, 1800)).toBe(false);
    expect(deadlineIsTight(3599, 1800)).toBe(true);
    expect(deadlineIsTight(60, 10)).toBe(false);
    expect(deadlineIsTight(0, 1800)).toBe(false);
    expect(deadlineIsTight(-5, 1800)).toBe(false);
    expect(deadlineIsTight(null, 1800)).toBe(false);
    expect(deadlineIsTight(10 ** 9, Number.POSITIVE_INFINITY)).toBe(true);
  });
});
