import { describe, expect, it } from 'vitest';
import { isUserMessage } from '../messages.js';
import {
  SETTINGS_DEFAULTS,
  SETTINGS_KEYS,
  SETTINGS_MSG,
  SETTING_KEY_LIST,
  contestSettingsSchema,
  parseSettingTime,
  readSettings,
  settingsToStored,
  toBeijingWallClock,
} from './settings.js';

describe('contest settings', () => {
  it('defaults satisfy the schema and round-trip through storage', () => {
    expect(contestSettingsSchema.safeParse(SETTINGS_DEFAULTS).success).toBe(true);
    expect(readSettings({})).toEqual(SETTINGS_DEFAULTS);
    expect(readSettings(settingsToStored(SETTINGS_DEFAULTS))).toEqual(SETTINGS_DEFAULTS);
    expect(Object.keys(settingsToStored(SETTINGS_DEFAULTS)).sort()).toEqual([...SETTING_KEY_LIST].sort());
  });

  it('keeps the keys other modules read', () => {
    expect(SETTINGS_KEYS).toMatchObject({
      name: 'contest.name',
      phases: 'contest.phases',
      maxApplicationChars: 'prelim.maxApplicationChars',
      prelimFileMaxBytes: 'prelim.fileMaxBytes',
      dataDocMenuName: 'site.dataDocMenuName',
    });
  });

  it('tolerates anything stored', () => {
    for (const junk of [null, -7, 'x', [], { a: 1 }]) {
      const s = readSettings(Object.fromEntries(SETTING_KEY_LIST.map((k) => [k, junk])));
      expect(contestSettingsSchema.safeParse(s).success).toBe(true);
      expect(s.name).toBe(typeof junk === 'string' ? 'x' : SETTINGS_DEFAULTS.name);
      expect(s.review).toEqual(SETTINGS_DEFAULTS.review);
    }
  });

  it('reads Beijing wall-clock and ISO times, and shows them back in Beijing time', () => {
    expect(parseSettingTime('2026-05-01 00:00:00')).toBe(Date.parse('2026-04-30T16:00:00Z'));
    expect(parseSettingTime('2026-05-01T00:00:00+08:00')).toBe(Date.parse('2026-04-30T16:00:00Z'));
    expect(parseSettingTime('2026-02-30 00:00:00')).toBeNull();
    expect(parseSettingTime('2026-05-01')).toBeNull();
    expect(toBeijingWallClock('2026-04-30T16:00:00.000Z')).toBe('2026-05-01 00:00:00');
  });

  it('joins the user-message catalogue', () => {
    expect(Object.values(SETTINGS_MSG).every(isUserMessage)).toBe(true);
  });
});
