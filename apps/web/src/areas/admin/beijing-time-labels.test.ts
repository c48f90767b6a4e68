/**
 * Every time the admin and expert consoles show says it is Beijing time (docs/decisions.md,
 * "English"). The kit labels what it is told is a time (`dateTime: true` columns and detail items;
 * components/admin-kit/beijing-title.test.tsx); this walk fails on a time formatted by hand without
 * the label: a bare `formatDateTime(...)` whose column or field is not declared a time nor titled
 * with `beijingTitle(...)` (in a sentence: `formatDateTimeLabel`), a device-clock dayjs format, or
 * the unlabelled formatter imported around the kit.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '..', '..');
const ROOTS = [join(SRC, 'areas', 'admin'), join(SRC, 'areas', 'expert')];
/** Lines above a bare time where its column's `dateTime: true` or its label's `beijingTitle(` may stand. */
const WINDOW = 8;
/** Formats of the device's clock that are not a display of a stored time. */
const DEVICE_CLOCK_ALLOWED = new Set([
  // The scheduling confirm echoes what the editor just picked in the date picker.
  'areas/admin/news/NewsEditPage.tsx',
  // 大赛设置's pickers hold the Beijing wall clock already (toBeijingWallClock); the page says so.
  'areas/admin/pages/ContestSettingsPage.tsx',
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const files = ROOTS.flatMap(sources).map((path) => ({ path: relative(SRC, path), lines: readFileSync(path, 'utf8').split('\n') }));

describe('console times say Beijing time', () => {
  it('walks the admin and expert areas', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('a bare formatDateTime(...) sits in a column or field titled as Beijing time', () => {
    const bare = files.flatMap(({ path, lines }) =>
      lines.flatMap((line, i) => {
        if (!/\bformatDateTime\(/.test(line) || /export function formatDateTime/.test(line)) return [];
        const around = lines.slice(Math.max(0, i - WINDOW), i + 1).join('\n');
        return /dateTime: true|beijingTitle\(/.test(around) ? [] : [`${path}:${i + 1}: ${line.trim()}`];
      }),
    );
    expect(bare).toEqual([]);
  });

  it('no stored time is formatted on the device clock, and the unlabelled formatter stays in the kit', () => {
    const found = files.flatMap(({ path, lines }) =>
      lines.flatMap((line, i) => {
        const deviceClock = /\.format\((DATE_FORMATS\.datetime|'YYYY-MM-DD HH:mm(:ss)?')\)/.test(line) && !DEVICE_CLOCK_ALLOWED.has(path);
        const raw = /import .*\bbeijingTime\b.* from '.*lib\/beijing-time'/.test(line) && path !== 'areas/admin/admin-api.ts';
        return deviceClock || raw ? [`${path}:${i + 1}: ${line.trim()}`] : [];
      }),
    );
    expect(found).toEqual([]);
  });
});
