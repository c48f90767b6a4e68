import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import { ADMIN_MSG, RESULTS_MSG, REVIEW_MSG, SETTINGS_MSG } from '@contest/shared';
import { ApiError, createHttpClient } from '../../api';
import { changeLocale, initI18n } from '../../i18n';
import { i18n } from '../../i18n';
import { describeRefusal, refusalText, serverText } from './refusal-text';

beforeAll(() => {
  initI18n();
});

afterEach(() => {
  changeLocale('zh-cn');
});

const refusal = (message: string, data: unknown = null, code = 'BAD_REQUEST', status = 400) =>
  new ApiError({ status, code: code as 'BAD_REQUEST', message, data });

describe('refusals in the page language', () => {
  it('English pages: a known shared message by its text, then the reason key, then a generic code; else the server text', () => {
    changeLocale('en');
    expect(refusalText(refusal('已被他人处理', { reason: 'STALE', version: 3 }))).toBe('This record was changed by someone else. Reload and try again.');
    expect(refusalText(refusal('该轮已有评分表', { reason: 'LOCKED', round: 'FINAL' }))).toBe(
      'This round already has scoring sheets: its scoring rule is locked.',
    );
    expect(refusalText(refusal(SETTINGS_MSG.appealExceedsPublicity, { field: 'appeal.windowDays' }))).toBe(
      'The appeal period cannot be longer than the publicity period',
    );
    expect(refusalText(refusal('无权访问', null, 'FORBIDDEN', 403))).toBe('You do not have permission to do this.');
    // Unknown reason and a specific 400: the server's text stays.
    expect(refusalText(refusal('某个新的拒绝原因', { reason: 'SOMETHING_NEW' }))).toBe('某个新的拒绝原因');
  });

  it('English pages: REVIEW_MSG and RESULTS_MSG refusals by their text, before the reason key', () => {
    changeLocale('en');
    expect(refusalText(refusal(REVIEW_MSG.rubricNameTooLong))).toBe('The criterion name must not exceed 20 characters');
    expect(refusalText(refusal(REVIEW_MSG.groupNameTaken, { reason: 'NAME_TAKEN' }))).toBe('This round already has a group with this name');
    expect(refusalText(refusal(REVIEW_MSG.sheetLocked, { reason: 'LOCKED' }))).toBe('The scores have been submitted and can no longer change');
    expect(refusalText(refusal(RESULTS_MSG.awardNameDuplicate))).toBe('Award names must differ');
    expect(refusalText(refusal(RESULTS_MSG.finalIncomplete, { reason: 'INCOMPLETE' }))).toBe(
      'Some final projects have not been fully scored; the final result cannot be published',
    );
  });

  it('every REVIEW_MSG text and the console\'s success texts have English, RESULTS_MSG through the results pages\' table', () => {
    changeLocale('en');
    const untranslated = [
      ...Object.values(REVIEW_MSG),
      ...Object.values(RESULTS_MSG),
      ADMIN_MSG.saved,
      ADMIN_MSG.created,
      ADMIN_MSG.deleted,
      ADMIN_MSG.enabled,
      ADMIN_MSG.disabled,
      ADMIN_MSG.passwordReset,
    ].filter((text) => serverText(text) === text || /[\u4e00-\u9fff]/.test(serverText(text)));
    expect(untranslated).toEqual([]);
  });

  it('success toasts echoing the server (保存成功): English on English pages, as sent on Chinese ones', () => {
    changeLocale('en');
    expect(serverText('保存成功')).toBe('Saved');
    expect(serverText(ADMIN_MSG.deleted)).toBe('Deleted');
    expect(serverText(REVIEW_MSG.rubricSaved)).toBe('Rubric saved');
    expect(serverText(RESULTS_MSG.versionPublished)).toBe(String(i18n.t('results:msg.versionPublished')));
    expect(serverText('某个新的成功提示')).toBe('某个新的成功提示');
    changeLocale('zh-cn');
    expect(serverText('保存成功')).toBe('保存成功');
    expect(serverText(REVIEW_MSG.rubricSaved)).toBe('评分细则已保存');
    expect(refusalText(refusal(REVIEW_MSG.rubricNameTooLong))).toBe(REVIEW_MSG.rubricNameTooLong);
    expect(refusalText(refusal(RESULTS_MSG.awardNameDuplicate))).toBe(RESULTS_MSG.awardNameDuplicate);
  });

  it('Chinese pages show the server text as sent (the spec\'s texts)', () => {
    changeLocale('zh-cn');
    expect(refusalText(refusal('已被他人处理', { reason: 'STALE' }))).toBe('已被他人处理');
    expect(describeRefusal({ code: 'FORBIDDEN', message: '无权访问', data: null })).toBeNull();
  });

  it('the console\'s refusal toasts use it: English text for a 400 with a known reason', async () => {
    changeLocale('en');
    const ui = { error: vi.fn<(message: string, durationMs: number) => void>(), closeAll: vi.fn(), confirm: vi.fn(async () => true) };
    const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => ({
      data: { status: 400, code: 'BAD_REQUEST', message: '已被他人处理', data: { reason: 'STALE' } },
      status: 400,
      statusText: 'Bad Request',
      headers: {},
      config,
    });
    const client = createHttpClient({
      getPathname: () => '/admin/review/groups',
      storage: localStorage,
      ui,
      navigate: vi.fn(),
      openLogin: vi.fn(),
      adapter,
      describe: describeRefusal,
    });
    await expect(client.put('/admin/review/groups/1', {})).rejects.toBeInstanceOf(ApiError);
    expect(ui.error).toHaveBeenCalledWith('This record was changed by someone else. Reload and try again.', expect.any(Number));
  });
});
