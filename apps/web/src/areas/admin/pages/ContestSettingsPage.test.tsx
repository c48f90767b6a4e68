import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SETTINGS_DEFAULTS, SETTINGS_MSG, type ContestSettings } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import type { StaffInfo } from '../../../lib/session';
import { formFieldOf } from './ContestSettingsPage';

// The first render loads antd and the page chunk; on a busy machine that exceeds the default 5 s.
const SLOW = { timeout: 20_000 };
const MB = 1024 * 1024;

const SETTINGS: ContestSettings = {
  ...structuredClone(SETTINGS_DEFAULTS),
  name: '2026全国智慧医保大赛',
  phases: {
    signUp: { start: '2026-04-30T16:00:00.000Z', end: '2026-07-31T15:59:59.000Z' },
    prelimSubmission: { start: '2026-05-31T16:00:00.000Z', end: null },
    prelimReview: null,
    finalReview: null,
  },
};

function mockApi(info: StaffInfo, settings: ContestSettings = SETTINGS) {
  localStorage.setItem('AdminToken', 'admin-token');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/admin/user/account') return ok(info);
    if (url === '/admin/settings') return ok(settings);
    throw new Error(`unexpected GET ${url}`);
  });
}

/** Clicks a button of the open confirmation (antd leaves closed ones in the DOM, mid-animation, in jsdom). */
async function confirmSave(button = '确认') {
  const dialog = await waitFor(() => {
    const open = screen.getAllByRole('dialog').filter((d) => !d.className.includes('leave') && within(d).queryByTestId('settings-changes'));
    expect(open).toHaveLength(1);
    return open[0]!;
  });
  fireEvent.click(within(dialog).getByRole('button', { name: button }));
}

async function loaded() {
  const name = (await screen.findByLabelText('大赛名称', {}, SLOW)) as HTMLInputElement;
  await waitFor(() => expect(name.value).toBe(SETTINGS.name));
  return name;
}

describe('大赛设置 page', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the settings, with Beijing times, and saves the whole object', async () => {
    mockApi(superAdmin());
    const put = vi.spyOn(api, 'put').mockImplementation(async (_url, body) => ok({ ...SETTINGS, name: (body as ContestSettings).name }, '保存成功'));
    renderRoute('/admin/system/settings');
    const name = (await screen.findByLabelText('大赛名称', {}, SLOW)) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('2026全国智慧医保大赛'));
    expect(screen.getByRole('heading', { level: 1, name: '大赛设置' })).toBeTruthy();
    for (const section of ['基本信息', '阶段时间', '通知', '初赛材料', '评审规则', '公示与申诉', '登录保护']) {
      expect(screen.getByRole('heading', { name: section })).toBeTruthy();
    }
    // Every control has a label.
    await waitFor(() => expect((screen.getByLabelText('报名时间') as HTMLInputElement).value).toBe('2026-05-01 00:00:00'));
    expect(screen.getByLabelText('安排初赛评审阶段').getAttribute('aria-checked')).toBe('false');
    expect(screen.getByLabelText('短信通知')).toBeTruthy();
    expect((screen.getByLabelText('演示视频大小上限（MB）') as HTMLInputElement).value).toBe('500');
    expect(screen.getByLabelText('决赛排名依据')).toBeTruthy();
    expect(screen.getByLabelText('申诉期（天）')).toBeTruthy();
    // The per-address login ceiling (docs/rules/identity.md, "Login limits"), default 300.
    expect((screen.getByLabelText('同一网络地址每分钟登录次数上限') as HTMLInputElement).value).toBe('300');
    fireEvent.change(screen.getByLabelText('同一网络地址每分钟登录次数上限'), { target: { value: '1200' } });
    // Expert downloads (docs/security.md, "Blind review"): off by default, preview only.
    expect(screen.getByTestId('settings-expert-download').textContent).toContain('不允许（仅预览）');
    fireEvent.mouseDown(screen.getByLabelText('专家下载材料'));
    fireEvent.click(await screen.findByText('仅 PDF（加水印）'));

    fireEvent.change(name, { target: { value: '新名称大赛' } });
    fireEvent.change(screen.getByLabelText('演示视频大小上限（MB）'), { target: { value: '300' } });
    fireEvent.click(screen.getByLabelText('短信通知'));
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await confirmSave();
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    const [url, body] = put.mock.calls[0]!;
    expect(url).toBe('/admin/settings');
    expect(body).toEqual({
      ...SETTINGS,
      name: '新名称大赛',
      notify: { sms: true, email: false },
      phases: {
        signUp: { start: '2026-05-01 00:00:00', end: '2026-07-31 23:59:59' },
        prelimSubmission: { start: '2026-06-01 00:00:00', end: null },
        prelimReview: null,
        finalReview: null,
      },
      prelim: { maxApplicationChars: null, fileMaxBytes: { ...SETTINGS.prelim.fileMaxBytes, video: 300 * MB } },
      review: { ...SETTINGS.review, expertDownload: 'pdf' },
      security: { loginPerIpPerMinute: 1200 },
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('does not save when Enter is pressed in a field', async () => {
    mockApi(superAdmin());
    const put = vi.spyOn(api, 'put').mockImplementation(async () => ok(SETTINGS));
    renderRoute('/admin/system/settings');
    const name = await loaded();
    fireEvent.change(name, { target: { value: '半截名' } });
    // A browser submits the form on Enter unless the key's default is prevented (implicit submission).
    for (const field of [name, screen.getByLabelText('报名时间')]) {
      const notPrevented = fireEvent.keyDown(field, { key: 'Enter', code: 'Enter', keyCode: 13 });
      if (notPrevented) fireEvent.submit(field.closest('form')!);
    }
    // The anchor: 保存 asks for its summary. Had Enter submitted, a summary would already be up
    // (the same submit path), so exactly one must appear, and nothing is sent before it is confirmed.
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await screen.findByTestId('settings-changes');
    expect(screen.getAllByTestId('settings-changes')).toHaveLength(1);
    expect(put).not.toHaveBeenCalled();
  });

  it('saves only after confirming a summary of what changes', async () => {
    mockApi(superAdmin());
    const put = vi.spyOn(api, 'put').mockImplementation(async (_url, body) => ok(body as ContestSettings, '保存成功'));
    renderRoute('/admin/system/settings');
    const name = await loaded();

    // Nothing changed: say so, no confirmation, no save.
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('没有修改，无需保存')).toBeTruthy();
    expect(screen.queryByTestId('settings-changes')).toBeNull();

    fireEvent.change(name, { target: { value: '新名称大赛' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    const summary = await screen.findByTestId('settings-changes');
    expect(within(summary).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['大赛名称：2026全国智慧医保大赛 -> 新名称大赛']);

    // Cancelling sends nothing.
    await confirmSave('取消');
    await waitFor(() => expect(screen.queryAllByRole('dialog').filter((d) => !d.className.includes('leave'))).toHaveLength(0));
    expect(put).not.toHaveBeenCalled();

    fireEvent.click(await screen.findByRole('button', { name: '保存' }, SLOW));
    await confirmSave();
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put.mock.calls[0]![1]).toMatchObject({ name: '新名称大赛', phases: { signUp: { start: '2026-05-01 00:00:00', end: '2026-07-31 23:59:59' } } });
    expect(await screen.findByText('保存成功')).toBeTruthy();
    // 取消 sent nothing then or later: the one call is the confirmed save.
    expect(put).toHaveBeenCalledTimes(1);
  });

  it('shows a refusal of the server under the field it names', async () => {
    mockApi(superAdmin());
    vi.spyOn(api, 'put')
      .mockRejectedValueOnce(refused(SETTINGS_MSG.reviewOverlaps, { field: 'phases.signUp.start' }))
      .mockRejectedValueOnce(refused(SETTINGS_MSG.appealExceedsPublicity, { field: 'appeal.windowDays' }));
    renderRoute('/admin/system/settings');
    await screen.findByLabelText('大赛名称', {}, SLOW);
    await waitFor(() => expect((screen.getByLabelText('大赛名称') as HTMLInputElement).value).toBe(SETTINGS.name));
    fireEvent.change(screen.getByLabelText('大赛名称'), { target: { value: '新名称大赛' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await confirmSave();
    expect(await screen.findByText(SETTINGS_MSG.reviewOverlaps)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: '保存' }, SLOW));
    await confirmSave();
    expect(await screen.findByText(SETTINGS_MSG.appealExceedsPublicity)).toBeTruthy();
  });

  it('in English: the form\'s checks and the server\'s refusals in English, the English name editable', async () => {
    mockApi(superAdmin());
    const put = vi.spyOn(api, 'put').mockRejectedValueOnce(refused(SETTINGS_MSG.appealExceedsPublicity, { field: 'appeal.windowDays' }));
    renderRoute('/admin/system/settings', { search: '?lang=en' });
    const name = (await screen.findByLabelText('Contest name', {}, SLOW)) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe(SETTINGS.name));
    const nameEn = screen.getByLabelText('Contest name in English') as HTMLInputElement;
    expect(nameEn.value).toBe('2025 National Smart Medical-Insurance Competition');
    fireEvent.change(nameEn, { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter the contest name in English', {}, SLOW)).toBeTruthy();
    expect(put).not.toHaveBeenCalled();
    fireEvent.change(nameEn, { target: { value: 'Smart Insurance Cup' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await confirmSave('OK');
    expect(await screen.findByText('The appeal period cannot be longer than the publicity period', {}, SLOW)).toBeTruthy();
    expect(put).toHaveBeenCalledWith('/admin/settings', expect.objectContaining({ nameEn: 'Smart Insurance Cup' }));
    expect(screen.queryByText(SETTINGS_MSG.appealExceedsPublicity)).toBeNull();
    // The success toast echoes the server's 保存成功: in English on English pages.
    put.mockImplementationOnce(async (_url, body) => ok({ ...SETTINGS, nameEn: (body as ContestSettings).nameEn }, '保存成功'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await confirmSave('OK');
    expect(await screen.findByText('Saved', {}, SLOW)).toBeTruthy();
    expect(screen.queryByText('保存成功')).toBeNull();
  });

  it('checks the form before sending', async () => {
    mockApi(superAdmin());
    const put = vi.spyOn(api, 'put');
    renderRoute('/admin/system/settings');
    const name = await screen.findByLabelText('大赛名称', {}, SLOW);
    await waitFor(() => expect((name as HTMLInputElement).value).toBe(SETTINGS.name));
    fireEvent.change(name, { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText(SETTINGS_MSG.nameRequired)).toBeTruthy();
    expect(put).not.toHaveBeenCalled();
  });

  it('is read-only without the settings:edit button', async () => {
    mockApi(operator(['system'], []));
    renderRoute('/admin/system/settings');
    const name = await screen.findByLabelText('大赛名称', {}, SLOW);
    await waitFor(() => expect((name as HTMLInputElement).value).toBe(SETTINGS.name));
    expect((name as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText('您没有编辑大赛设置的权限，仅可查看')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '保存' })).toBeNull();
  });

  it('maps server fields to the form', () => {
    expect(formFieldOf('phases.prelimReview.start')).toEqual(['phases', 'prelimReview', 'range']);
    expect(formFieldOf('prelim.fileMaxBytes.video')).toEqual(['prelim', 'fileMaxMb', 'video']);
    expect(formFieldOf('review.rules.FINAL.tieBreak.0')).toEqual(['review', 'rules', 'FINAL', 'tieBreak']);
    expect(formFieldOf('appeal.windowDays')).toEqual(['appeal', 'windowDays']);
    expect(formFieldOf('security.loginPerIpPerMinute')).toEqual(['security', 'loginPerIpPerMinute']);
    expect(formFieldOf('notify')).toBeNull();
  });
});
