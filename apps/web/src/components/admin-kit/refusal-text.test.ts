import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import { SETTINGS_MSG } from '@contest/shared';
import { ApiError, createHttpClient } from '../../api';
import { changeLocale, initI18n } from '../../i18n';
import { describeRefusal, refusalText } from './refusal-text';

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
