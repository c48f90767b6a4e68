/** 数据字典 (/admin/system/dataField): English names of types and items (docs/rules/admin.md, "Data dictionary"). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DICT_MSG, type DictItem, type DictType } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { superAdmin } from '../../../components/admin-kit/staff-fixtures';

const SLOW = { timeout: 20_000 };
const PATH = '/admin/system/dataField';
const AT = '2025-05-01T00:00:00.000Z';

const type: DictType = { code: 'FEEDBACK_TYPE', name: '反馈类型', nameEn: 'Feedback type', sort: 5, itemCount: 2, builtin: true, createdAt: AT, updatedAt: AT };
const items: DictItem[] = [
  { id: '00000000-0000-4000-8000-000000000001', typeCode: 'FEEDBACK_TYPE', code: 'BUG', name: '系统问题', nameEn: 'System problem', sort: 0, enabled: true, createdAt: AT, updatedAt: AT },
  { id: '00000000-0000-4000-8000-000000000002', typeCode: 'FEEDBACK_TYPE', code: 'NEW', name: '新类型', nameEn: null, sort: 1, enabled: true, createdAt: AT, updatedAt: AT },
];

function mockGet() {
  localStorage.setItem('AdminToken', 'admin-token');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/admin/user/account') return ok(superAdmin());
    if (url === '/admin/dic/type') return ok([type]);
    if (url === '/admin/dic/item') return ok(items);
    throw new Error(`unexpected GET ${url}`);
  });
}

const itemRow = (code: string) => screen.getAllByText(code).map((cell) => cell.closest('tr')!).find((tr) => tr.querySelectorAll('td').length > 4)!;

describe('数据字典: English names', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the English names ("--" when none) and edits them: set, checked for length, cleared', async () => {
    mockGet();
    const put = vi.spyOn(api, 'put').mockResolvedValue(ok(items[0]));
    renderRoute(PATH);
    await screen.findByText('系统问题', {}, SLOW);
    expect(screen.getByText('Feedback type')).toBeTruthy();
    expect(itemRow('BUG').textContent).toContain('System problem');
    expect(Array.from(itemRow('NEW').querySelectorAll('td')).map((td) => td.textContent)).toContain('--');

    fireEvent.click(within(itemRow('BUG')).getByRole('button', { name: '编辑' }));
    const dialog = await screen.findByRole('dialog');
    const english = within(dialog).getByLabelText('英文名称') as HTMLInputElement;
    expect(english.value).toBe('System problem');
    expect(dialog.textContent).toContain('留空则显示中文名称');

    fireEvent.change(english, { target: { value: 'x'.repeat(101) } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    expect(await within(dialog).findByText(DICT_MSG.dictNameEnTooLong)).toBeTruthy();
    expect(put).not.toHaveBeenCalled();

    fireEvent.change(english, { target: { value: '  Technical issue ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() =>
      expect(put).toHaveBeenCalledWith(`/admin/dic/item/${items[0]!.id}`, { name: '系统问题', nameEn: 'Technical issue', sort: 0, enabled: true }),
    );

    fireEvent.click(within(itemRow('BUG')).getByRole('button', { name: '编辑' }));
    const again = await screen.findByRole('dialog');
    fireEvent.change(within(again).getByLabelText('英文名称'), { target: { value: '' } });
    fireEvent.click(within(again).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(put).toHaveBeenLastCalledWith(`/admin/dic/item/${items[0]!.id}`, { name: '系统问题', nameEn: '', sort: 0, enabled: true }));
  });

  it('creates an item with its English name and edits a type', async () => {
    mockGet();
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(items[1]));
    const put = vi.spyOn(api, 'put').mockResolvedValue(ok(type));
    renderRoute(PATH);
    await screen.findByText('系统问题', {}, SLOW);

    fireEvent.click(screen.getByRole('button', { name: /新增字典项/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('编码'), { target: { value: 'PRAISE' } });
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '表扬' } });
    fireEvent.change(within(dialog).getByLabelText('英文名称'), { target: { value: 'Praise' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/admin/dic/item', expect.objectContaining({ typeCode: 'FEEDBACK_TYPE', code: 'PRAISE', name: '表扬', nameEn: 'Praise' })),
    );

    const typeRow = screen.getByText('Feedback type').closest('tr')!;
    fireEvent.click(within(typeRow).getByRole('button', { name: '编辑' }));
    const typeDialog = (await screen.findAllByRole('dialog')).find((d) => within(d).queryByLabelText('类型名称'))!;
    expect((within(typeDialog).getByLabelText('英文名称') as HTMLInputElement).value).toBe('Feedback type');
    fireEvent.change(within(typeDialog).getByLabelText('英文名称'), { target: { value: 'Feedback category' } });
    fireEvent.click(within(typeDialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(put).toHaveBeenCalledWith('/admin/dic/type/FEEDBACK_TYPE', { name: '反馈类型', nameEn: 'Feedback category', sort: 5 }));
  });

  it('in English names the open type by its English name', async () => {
    mockGet();
    renderRoute(PATH, { search: '?lang=en' });
    await screen.findByText('System problem', {}, SLOW);
    const itemsCard = await screen.findByText(/^Items of/, {}, SLOW);
    expect(itemsCard.textContent).toContain('Feedback type');
    expect(itemsCard.textContent).not.toContain('反馈类型');
  });
});
