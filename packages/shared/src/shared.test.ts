import { describe, expect, it } from 'vitest';
import {
  ADMIN_BUTTONS,
  ADMIN_MENU_PATHS,
  ADMIN_MENUS,
  MSG,
  VALIDATION_MSG,
  flattenMenus,
  formatFileSize,
  isUserMessage,
  joinQueryArray,
  normalizeLocale,
  resolveLocale,
  splitQueryArray,
} from './index.js';

describe('formatFileSize', () => {
  it.each([
    [0, '0 Bytes'],
    [-5, '0 Bytes'],
    [Number.NaN, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [5_242_880, '5 MB'],
    [1024 ** 3 * 2.255, '2.25 GB'],
    [1024 ** 8, '1 YB'],
    [1024 ** 9, '1024 YB'],
  ])('%d -> %s', (bytes, expected) => {
    expect(formatFileSize(bytes)).toBe(expected);
  });
});

describe('locale resolution', () => {
  it('normalises tags', () => {
    expect(normalizeLocale('en-US')).toBe('en');
    expect(normalizeLocale('zh_CN')).toBe('zh-cn');
    expect(normalizeLocale('zh-TW')).toBe('zh-cn');
    expect(normalizeLocale('ZH-cn')).toBe('zh-cn');
    expect(normalizeLocale('fr')).toBeNull();
    expect(normalizeLocale('')).toBeNull();
    expect(normalizeLocale(null)).toBeNull();
  });

  it('the lang query wins, then the stored choice, then the browser, then zh-cn', () => {
    expect(resolveLocale({ query: 'en', stored: 'zh-cn', browser: ['zh-CN'] })).toBe('en');
    expect(resolveLocale({ query: 'xx', stored: 'en', browser: ['zh-CN'] })).toBe('en');
    expect(resolveLocale({ browser: ['fr-FR', 'en-GB'] })).toBe('en');
    expect(resolveLocale({ browser: ['fr-FR'] })).toBe('zh-cn');
    expect(resolveLocale({})).toBe('zh-cn');
  });
});

describe('query arrays', () => {
  it('split comma lists, drop blanks, accept repeated keys', () => {
    expect(splitQueryArray('a,b, c,,')).toEqual(['a', 'b', 'c']);
    expect(splitQueryArray(['a,b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(splitQueryArray(undefined)).toEqual([]);
    expect(joinQueryArray([1, 'x'])).toBe('1,x');
  });
});

describe('messages', () => {
  it('keeps the spec texts verbatim', () => {
    expect(MSG.requestFailed).toBe('请求异常，请稍后再试');
    expect(MSG.previous409).toBe('Previous 409 error encountered');
    expect(VALIDATION_MSG.passwordRule).toBe('密码必须是8 - 16位，且包含数字、字母和特殊字符');
  });

  it('recognises catalogue messages only', () => {
    expect(isUserMessage(VALIDATION_MSG.phoneRequired)).toBe(true);
    expect(isUserMessage('Invalid input: expected string, received undefined')).toBe(false);
  });
});

describe('admin menus', () => {
  const flat = flattenMenus(ADMIN_MENUS);

  it('have unique codes and paths under /admin', () => {
    expect(new Set(flat.map((m) => m.code)).size).toBe(flat.length);
    expect(flat.every((m) => m.path.startsWith('/admin/'))).toBe(true);
  });

  it("take each entry's path from ADMIN_MENU_PATHS under its own code, every path used once (the web routes use the same table)", () => {
    expect(flat.filter((m) => (ADMIN_MENU_PATHS as Record<string, string>)[m.code] !== m.path).map((m) => m.code)).toEqual([]);
    expect(Object.keys(ADMIN_MENU_PATHS).sort()).toEqual(flat.map((m) => m.code).sort());
  });

  it('cover every menu page of the spec', () => {
    const paths = new Set(flat.map((m) => m.path));
    for (const path of [
      '/admin/home',
      '/admin/user/team',
      '/admin/competition/qualification-draft',
      '/admin/competition/qualification',
      '/admin/preliminary/preliminaryBox',
      '/admin/preliminary/preliminarySearch',
      '/admin/grade/database-expert',
      '/admin/grade/review-group',
      '/admin/grade/gradeManage-grade',
      '/admin/grade/scoringMonitoringExpert',
      '/admin/preliminary/preliminaryAdminSearch',
      '/admin/grade/review-admin-group',
      '/admin/grade/gradeManage-admin-grade',
      '/admin/grade/scoringMonitoringAdminExpert',
      '/admin/user/siteContentManagement',
      '/admin/user/docManage',
      '/admin/information/NoteManage',
      '/admin/information/InMailManage',
      '/admin/information/UserFeedback',
      '/admin/behaviorAuditing/UserManage',
      '/admin/behaviorAuditing/AdminManage',
      '/admin/behaviorAuditing/ExpertManage',
      '/admin/system/systemManage',
      '/admin/system/roleManage',
      '/admin/system/dataField',
      '/admin/account/accountManage',
    ]) {
      expect(paths.has(path), path).toBe(true);
    }
  });

  it('children follow their parent, and every button belongs to a menu', () => {
    const index = new Map(flat.map((m, i) => [m.code, i]));
    for (const m of flat) if (m.parentCode) expect(index.get(m.parentCode)!).toBeLessThan(index.get(m.code)!);
    for (const b of ADMIN_BUTTONS) expect(index.has(b.menuCode), b.code).toBe(true);
    expect(new Set(ADMIN_BUTTONS.map((b) => b.code)).size).toBe(ADMIN_BUTTONS.length);
  });
});
