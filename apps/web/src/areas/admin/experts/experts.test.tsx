/** 专家库 (/admin/grade/database-expert) with mocked answers (packages/shared/src/review/api.ts, "experts"). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CONTEST_MSG, REVIEW_MSG, type ExpertCredentials, type ExpertImportResult, type ExpertRow, type ImportRowError, type Page } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import type { StaffInfo } from '../../../lib/session';
import { toExpertBody } from './ExpertFormDialog';

// The first render loads antd and the page chunk; on a busy machine that exceeds the default 5 s.
const SLOW = { timeout: 20_000 };
const PATH = '/admin/grade/database-expert';

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const row = (n: number, over: Partial<ExpertRow> = {}): ExpertRow => ({
  id: ID(n),
  code: `E000${n}`,
  username: `e000${n}`,
  name: `专家${n}`,
  phone: `1380000000${n}`,
  organization: `第${n}人民医院`,
  orgCreditCode: null,
  title: '主任医师',
  tracks: ['SMART_SUPERVISION'],
  declaredOrgs: [],
  enabled: true,
  agreed: false,
  groups: { PRELIMINARY: null, FINAL: null },
  lastLoginAt: null,
  createdAt: '2025-06-01T02:00:00Z',
  ...over,
});

const page = <T,>(list: T[]): Page<T> => ({ list, page: 1, size: 10, total: list.length });

const DICT: Record<string, Record<string, string>> = {
  TRACK: { SMART_SUPERVISION: '智能监管与基金安全', PAYMENT_REFORM: '支付方式改革' },
  PROFESSIONAL_TITLE: { SENIOR: '正高级' },
};

function mockGet(info: StaffInfo, list: ExpertRow[]) {
  localStorage.setItem('AdminToken', 'admin-token');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string, config?: { params?: Record<string, unknown> }) => {
    const types = (config?.params?.types as string[] | undefined) ?? [];
    if (url === '/admin/user/account') return ok(info);
    if (url === '/dic/label') return ok(Object.fromEntries(types.map((t) => [t, DICT[t] ?? {}])));
    if (url === '/dic/public') return ok(Object.fromEntries(types.map((t) => [t, Object.entries(DICT[t] ?? {}).map(([code, name]) => ({ code, name }))])));
    if (url === '/admin/expert/list') return ok(page(list));
    throw new Error(`unexpected GET ${url}`);
  });
}

const callsTo = (spy: { mock: { calls: unknown[][] } }, url: string) => spy.mock.calls.filter(([u]) => u === url);

describe('专家库', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists experts with track names, groups, agreement and status; searches by keyword', async () => {
    const get = mockGet(superAdmin(), [
      row(1, { tracks: ['SMART_SUPERVISION', 'PAYMENT_REFORM'], groups: { PRELIMINARY: '第一组', FINAL: null }, agreed: true, orgCreditCode: '91350100M000100Y43' }),
      row(2, { enabled: false, title: 'SENIOR' }),
    ]);
    renderRoute(PATH);
    const first = (await screen.findByText('E0001', {}, SLOW)).closest('tr')!;
    await waitFor(() => expect(within(first).getByTestId('expert-tracks').textContent).toBe('智能监管与基金安全支付方式改革'), SLOW);
    expect(first.textContent).not.toContain('SMART_SUPERVISION');
    expect(first.textContent).toContain('专家1');
    expect(first.textContent).toContain('第1人民医院');
    expect(first.textContent).toContain('91350100M000100Y43');
    expect(first.textContent).toContain('初赛：第一组');
    expect(first.textContent).toContain('已签署');
    expect(first.textContent).toContain('启用');
    const second = screen.getByText('E0002').closest('tr')!;
    expect(second.textContent).toContain('未签署');
    // A title held as a 职称 code (demo data, imports) shows its name; free text shows as typed.
    expect(second.textContent).toContain('正高级');
    expect(second.textContent).not.toContain('SENIOR');
    expect(first.textContent).toContain('主任医师');
    expect(within(second).getByTestId('row-toggle').textContent).toBe('启用');
    expect(screen.getByTestId('expert-create')).toBeTruthy();
    expect(screen.getByTestId('expert-import-open')).toBeTruthy();
    expect(screen.getByTestId('kit-export')).toBeTruthy();

    const form = screen.getByTestId('kit-search-form');
    fireEvent.change(within(form).getByLabelText('关键字'), { target: { value: '医院' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(callsTo(get, '/admin/expert/list').at(-1)![1]).toEqual({ params: { keyword: '医院', page: 1, size: 10 } }), SLOW);
  });

  it('without the buttons: no create, import, export, edit, disable or reset', async () => {
    mockGet(operator(['grade']), [row(1)]);
    renderRoute(PATH);
    const first = (await screen.findByText('E0001', {}, SLOW)).closest('tr')!;
    expect(within(first).queryByTestId('row-edit')).toBeNull();
    expect(within(first).queryByTestId('row-toggle')).toBeNull();
    expect(within(first).queryByTestId('row-reset')).toBeNull();
    expect(screen.queryByTestId('expert-create')).toBeNull();
    expect(screen.queryByTestId('expert-import-open')).toBeNull();
    expect(screen.queryByTestId('kit-export')).toBeNull();
  });

  it('create: checks the form before sending, places a refusal under its field, then shows the password once', async () => {
    mockGet(superAdmin(), [row(1)]);
    const created: ExpertCredentials = { id: ID(9), code: 'E0009', name: '新专家', username: 'e0009', password: 'Gen@2025abc' };
    const post = vi
      .spyOn(api, 'post')
      .mockRejectedValueOnce(refused(REVIEW_MSG.expertPhoneTaken, { field: 'phone' }))
      .mockResolvedValueOnce(ok(created));
    renderRoute(PATH);
    fireEvent.click(await screen.findByTestId('expert-create', {}, SLOW));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    expect(await within(dialog).findByText(REVIEW_MSG.expertNameRequired)).toBeTruthy();
    expect(within(dialog).getByText(REVIEW_MSG.expertPhoneRequired)).toBeTruthy();
    expect(within(dialog).getByText(REVIEW_MSG.expertOrgRequired)).toBeTruthy();
    expect(within(dialog).getByText(REVIEW_MSG.expertTracksRequired)).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByLabelText('专家编号'), { target: { value: 'X12' } });
    fireEvent.change(within(dialog).getByLabelText('手机号'), { target: { value: '1234' } });
    fireEvent.change(within(dialog).getByLabelText('单位统一社会信用代码'), { target: { value: '91350100M000100Y44' } });
    expect(await within(dialog).findByText(REVIEW_MSG.expertCodeInvalid)).toBeTruthy();
    expect(await within(dialog).findByText(REVIEW_MSG.expertPhoneInvalid)).toBeTruthy();
    expect(await within(dialog).findByText(CONTEST_MSG.creditCodeInvalid)).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('专家编号'), { target: { value: '' } });
    fireEvent.change(within(dialog).getByLabelText('姓名'), { target: { value: '新专家' } });
    fireEvent.change(within(dialog).getByLabelText('手机号'), { target: { value: '13900000009' } });
    fireEvent.change(within(dialog).getByLabelText('所在单位'), { target: { value: '示例医院' } });
    fireEvent.change(within(dialog).getByLabelText('单位统一社会信用代码'), { target: { value: '91350100m000100y43' } });
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    fireEvent.click(await screen.findByText('支付方式改革', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(within(dialog).getByRole('button', { name: /添加回避单位/ }));
    fireEvent.change(await within(dialog).findByLabelText('回避单位名称'), { target: { value: '某科技有限公司' } });

    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    expect(post).toHaveBeenCalledWith(
      '/admin/expert',
      {
        code: undefined,
        name: '新专家',
        phone: '13900000009',
        organization: '示例医院',
        orgCreditCode: '91350100M000100Y43',
        title: null,
        tracks: ['PAYMENT_REFORM'],
        declaredOrgs: [{ name: '某科技有限公司', creditCode: null }],
      },
      { silent: true },
    );
    // The server's refusal sits under the phone field.
    expect(await within(dialog).findByText(REVIEW_MSG.expertPhoneTaken)).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('手机号'), { target: { value: '13900000010' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
    expect((await screen.findByTestId('generated-password')).textContent).toBe('Gen@2025abc');
  });

  it('edit: masked phone and credit codes (as the list shows them) pass the form and go back unchanged, with a hint', async () => {
    const masked = row(1, { phone: '138****0001', orgCreditCode: '9135**********0Y43', declaredOrgs: [{ name: '某科技有限公司', creditCode: '9111**********000A' }] });
    mockGet(superAdmin(), [masked]);
    const put = vi.spyOn(api, 'put').mockResolvedValue(ok(masked));
    renderRoute(PATH);
    const first = (await screen.findByText('E0001', {}, SLOW)).closest('tr')!;
    expect(first.textContent).toContain('138****0001');
    expect(first.textContent).toContain('9135**********0Y43');
    fireEvent.click(within(first).getByTestId('row-edit'));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findAllByText('显示为脱敏内容；不修改则保留原值，如需修改请填写完整内容')).toHaveLength(2);
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put.mock.calls[0]![1]).toMatchObject({ phone: '138****0001', orgCreditCode: '9135**********0Y43', declaredOrgs: [{ name: '某科技有限公司', creditCode: '9111**********000A' }] });
  });

  it('reset password and disable ask first; the new password is shown once', async () => {
    mockGet(superAdmin(), [row(1)]);
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok({ id: ID(1), code: 'E0001', name: '专家1', username: 'e0001', password: 'Rst@2025xyz' }));
    const put = vi.spyOn(api, 'put').mockResolvedValue(ok(row(1, { enabled: false })));
    renderRoute(PATH);
    const first = (await screen.findByText('E0001', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(first).getByTestId('row-reset'));
    const confirm = await screen.findByRole('dialog');
    expect(confirm.textContent).toContain('专家1（E0001）');
    expect(post).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith(`/admin/expert/${ID(1)}/reset-password`));
    expect((await screen.findByTestId('generated-password')).textContent).toBe('Rst@2025xyz');

    fireEvent.click(within(first).getByTestId('row-toggle'));
    const ask = (await screen.findAllByRole('dialog')).find((d) => d.textContent?.includes('禁用'))!;
    fireEvent.click(within(ask).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(put).toHaveBeenCalledWith(`/admin/expert/${ID(1)}/enabled`, { enabled: false }));
  });

  it('toExpertBody drops blanks and upper-cases codes', () => {
    expect(
      toExpertBody({ code: ' e0012 ', name: ' 甲 ', phone: '13900000000', organization: '单位', orgCreditCode: ' ', title: ' ', tracks: ['X'], declaredOrgs: [{ name: ' ', creditCode: '' }, { name: '乙', creditCode: 'abc' }] }),
    ).toEqual({ code: 'E0012', name: '甲', phone: '13900000000', organization: '单位', orgCreditCode: null, title: null, tracks: ['X'], declaredOrgs: [{ name: '乙', creditCode: 'ABC' }] });
  });

  it('import: a refused sheet shows each row, column and reason; a clean one the passwords once', async () => {
    mockGet(superAdmin(), [row(1)]);
    const rows: ImportRowError[] = [
      { row: 3, column: '手机号', reason: REVIEW_MSG.expertPhoneInvalid },
      { row: 5, column: '擅长方向', reason: '擅长方向“区块链”不存在，请填写“擅长方向”表中的名称或代码' },
    ];
    const result: ExpertImportResult = {
      imported: 2,
      credentials: [
        { id: ID(11), code: 'E0011', name: '导入甲', username: 'e0011', password: 'Imp@2025aaa' },
        { id: ID(12), code: 'E0012', name: '导入乙', username: 'e0012', password: 'Imp@2025bbb' },
      ],
    };
    const post = vi
      .spyOn(api, 'post')
      .mockRejectedValueOnce(refused(REVIEW_MSG.importHasErrors, { rows }))
      .mockResolvedValueOnce(ok(result));
    renderRoute(PATH);
    fireEvent.click(await screen.findByTestId('expert-import-open', {}, SLOW));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('import-template')).toBeTruthy();
    const start = within(dialog).getByTestId('import-start');
    expect((start as HTMLButtonElement).disabled).toBe(true);

    // The uploader renews its input after each choice: look it up every time.
    const input = () => dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input(), { target: { files: [new File(['a,b'], '专家.csv', { type: 'text/csv' })] } });
    expect((await within(dialog).findByTestId('import-file-problem')).textContent).toContain('请选择 .xlsx 格式的文件');

    fireEvent.change(input(), { target: { files: [new File([new Uint8Array([0x50, 0x4b, 3, 4])], '专家.xlsx')] } });
    await waitFor(() => expect(within(dialog).getByTestId('import-file-name').textContent).toBe('专家.xlsx'));
    fireEvent.click(within(dialog).getByTestId('import-start'));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    const [url, body, config] = post.mock.calls[0]!;
    expect(url).toBe('/admin/expert/import');
    expect((body as FormData).get('file')).toBeInstanceOf(File);
    expect(config).toEqual({ silent: true });

    const report = await within(dialog).findByTestId('import-errors');
    expect(report.textContent).toContain(REVIEW_MSG.importHasErrors);
    expect(report.textContent).toContain('共 2 处错误');
    const lines = within(report).getAllByRole('row').slice(1).map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent));
    expect(lines).toEqual([
      ['3', '手机号', REVIEW_MSG.expertPhoneInvalid],
      ['5', '擅长方向', '擅长方向“区块链”不存在，请填写“擅长方向”表中的名称或代码'],
    ]);

    // Corrected and sent again: the credentials, with the warning that they are shown once.
    fireEvent.click(within(dialog).getByTestId('import-start'));
    const done = await within(dialog).findByTestId('import-done');
    expect(done.textContent).toContain('成功导入 2 名专家');
    expect(done.textContent).toContain('只显示这一次');
    expect(done.textContent).toContain('Imp@2025aaa');
    expect(done.textContent).toContain('E0012');
    expect(within(dialog).queryByTestId('import-errors')).toBeNull();
  });
});
