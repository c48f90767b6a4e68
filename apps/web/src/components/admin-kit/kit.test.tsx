import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import { Form, Input } from 'antd';
import type { Page } from '@contest/shared';
import { api } from '../../lib/api';
import { ok } from '../../test/api-mocks';
import { AppDialog } from './AppDialog';
import { ButtonGroup } from './ButtonGroup';
import { CardTitle } from './CardTitle';
import { DataTable, useMinimumDuration, withEmptyCells } from './DataTable';
import { KitTabs } from './KitTabs';
import { LabelValue } from './LabelValue';
import { isNearBottom, throttle } from './LoadMoreSelect';
import { Pager } from './Pager';
import { SearchTable } from './SearchTable';
import { SideDrawer } from './SideDrawer';
import { operator } from './staff-fixtures';
import { renderKit } from './render-kit';

interface Row {
  id: string;
  name: string | null;
  phone?: string;
}

const columns = [
  { title: '姓名', dataIndex: 'name' },
  { title: '手机号', dataIndex: 'phone' },
];

describe('DataTable', { timeout: 20_000 }, () => {
  it('shows a six-row skeleton while the first page loads', () => {
    renderKit(<DataTable<Row> rowKey="id" columns={columns} dataSource={[]} loading />);
    const skeleton = screen.getByTestId('table-skeleton');
    expect(skeleton.querySelectorAll('.ant-skeleton')).toHaveLength(6);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('keeps the skeleton at least 500 ms once shown', () => {
    vi.useFakeTimers();
    try {
      const { result, rerender } = renderHook(({ on }) => useMinimumDuration(on), { initialProps: { on: true } });
      expect(result.current).toBe(true);
      act(() => vi.advanceTimersByTime(100));
      rerender({ on: false });
      expect(result.current).toBe(true);
      act(() => vi.advanceTimersByTime(399));
      expect(result.current).toBe(true);
      act(() => vi.advanceTimersByTime(1));
      expect(result.current).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows 请求加载中.... over the rows while a later page loads, and nothing once loaded', async () => {
    const rows = [{ id: '1', name: '张三' }];
    const { rerender } = renderKit(<DataTable<Row> rowKey="id" columns={columns} dataSource={rows} loading />);
    expect(await screen.findByText('请求加载中....')).toBeTruthy();
    expect(screen.getByText('张三')).toBeTruthy();
    rerender(<DataTable<Row> rowKey="id" columns={columns} dataSource={rows} loading={false} />);
    await waitFor(() => expect(screen.queryByText('请求加载中....')).toBeNull());
  });

  it('shows 暂无相关信息 when empty and -- in empty cells', async () => {
    const { unmount } = renderKit(<DataTable<Row> rowKey="id" columns={columns} dataSource={[]} />);
    expect(await screen.findByText('暂无相关信息')).toBeTruthy();
    unmount();
    renderKit(<DataTable<Row> rowKey="id" columns={columns} dataSource={[{ id: '1', name: '张三', phone: ' ' }, { id: '2', name: null }]} />);
    const rows = await screen.findAllByRole('row');
    expect(rows[1]?.textContent).toBe('张三--');
    expect(rows[2]?.textContent).toBe('----');
  });

  it('keeps a zero and a column render of its own', () => {
    const cols = withEmptyCells<{ n: number | null }>([
      { dataIndex: 'n', render: (v: number | null) => (v === null ? null : `#${v}`) },
    ]);
    const render = (cols[0] as { render: (v: unknown, r: unknown, i: number) => unknown }).render;
    expect(render(0, {}, 0)).toBe('#0');
    expect(render(null, {}, 0)).toBe('--');
  });
});

describe('Pager', { timeout: 20_000 }, () => {
  it('lays out previous, pager, next and jumper, ten a page, without a size changer', async () => {
    const onChange = vi.fn();
    renderKit(<Pager page={1} total={35} onChange={onChange} />);
    const pager = await screen.findByTestId('kit-pager');
    const parts = Array.from(pager.children).map((el) => el.className.split(' ')[0]);
    expect(parts[0]).toBe('ant-pagination-prev');
    expect(parts.at(-2)).toBe('ant-pagination-next');
    expect(parts.at(-1)).toBe('ant-pagination-options');
    expect(pager.querySelector('.ant-pagination-options-quick-jumper')).toBeTruthy();
    expect(pager.querySelector('.ant-select')).toBeNull();
    expect(pager.querySelectorAll('.ant-pagination-item')).toHaveLength(4);
    fireEvent.click(within(pager).getByText('2'));
    expect(onChange).toHaveBeenCalledWith(2, 10);
  });

  it('names its arrows in the page language, never by the icons\' English names', async () => {
    const onChange = vi.fn();
    renderKit(<Pager page={1} total={35} onChange={onChange} />);
    const pager = await screen.findByTestId('kit-pager');
    // The icons stay, hidden from screen readers.
    expect(pager.querySelector('[aria-label="left"]:not([aria-hidden="true"]), [aria-label="right"]:not([aria-hidden="true"])')).toBeNull();
    const prev = within(pager).getByRole('button', { name: '上一页' }) as HTMLButtonElement;
    const next = within(pager).getByRole('button', { name: '下一页' }) as HTMLButtonElement;
    expect(prev.disabled).toBe(true);
    expect(next.disabled).toBe(false);
    fireEvent.click(next);
    expect(onChange).toHaveBeenCalledWith(2, 10);
  });

  it('is hidden when there is nothing to page', () => {
    renderKit(<Pager page={1} total={0} onChange={() => {}} />);
    expect(screen.queryByTestId('kit-pager')).toBeNull();
  });
});

describe('SearchTable', { timeout: 20_000 }, () => {
  it('asks for page 1 of 10, searches from page 1 again, and resets the filters', async () => {
    const fetchPage = vi.fn(async (params: { page: number; size: number; name?: string }): Promise<Page<Row>> => ({
      list: Array.from({ length: params.page === 1 ? 10 : 3 }, (_, i) => ({ id: `${params.page}-${i}`, name: `n${params.page}-${i}` })),
      page: params.page,
      size: params.size,
      total: 13,
    }));
    renderKit(
      <SearchTable<Row, { name?: string }>
        queryKey={['rows']}
        fetchPage={fetchPage}
        columns={columns}
        rowKey="id"
        filters={
          <Form.Item name="name" label="姓名">
            <Input placeholder="姓名" />
          </Form.Item>
        }
      />,
    );
    expect(await screen.findByText('n1-0')).toBeTruthy();
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10 });

    fireEvent.click(within(screen.getByTestId('kit-pager')).getByText('2'));
    expect(await screen.findByText('n2-0')).toBeTruthy();
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 2, size: 10 });

    fireEvent.change(screen.getByPlaceholderText('姓名'), { target: { value: ' 张 ' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith({ name: ' 张 ', page: 1, size: 10 }));

    fireEvent.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10 }));
    expect((screen.getByPlaceholderText('姓名') as HTMLInputElement).value).toBe('');

    // 查询 with unchanged filters asks the server again (the cache key does not change).
    const calls = fetchPage.mock.calls.length;
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(fetchPage).toHaveBeenCalledTimes(calls + 1));
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10 });
  });
});

describe('SideDrawer and AppDialog', { timeout: 20_000 }, () => {
  it('opens a 1002 px drawer that a backdrop click does not close', async () => {
    const onClose = vi.fn();
    renderKit(
      <SideDrawer open title="详情" onClose={onClose}>
        内容
      </SideDrawer>,
    );
    expect(await screen.findByText('内容')).toBeTruthy();
    const wrapper = document.querySelector('.ant-drawer-content-wrapper') as HTMLElement;
    expect(wrapper.style.width).toBe('1002px');
    fireEvent.click(document.querySelector('.ant-drawer-mask')!);
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /close|关闭/i }));
    expect(onClose).toHaveBeenCalled();
  });

  it('labels dialog buttons 取消 and 确认 by default', async () => {
    const onOk = vi.fn();
    renderKit(
      <AppDialog open title="标题" onOk={onOk}>
        正文
      </AppDialog>,
    );
    expect(await screen.findByRole('button', { name: '取消' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '确认' }));
    expect(onOk).toHaveBeenCalled();
  });
});

describe('KitTabs, CardTitle, LabelValue', { timeout: 20_000 }, () => {
  it('does not switch to a disabled tab', async () => {
    const onChange = vi.fn();
    renderKit(
      <KitTabs
        bordered
        onChange={onChange}
        items={[
          { key: 'a', txtMes: '甲', component: <p>甲内容</p> },
          { key: 'b', txtMes: '乙', disabled: true, component: <p>乙内容</p> },
          { key: 'c', txtMes: '丙', component: <p>丙内容</p> },
        ]}
      />,
    );
    expect(await screen.findByText('甲内容')).toBeTruthy();
    expect(document.querySelector('.ant-tabs-card')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: '乙' }));
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('tab', { name: '丙' }));
    expect(onChange).toHaveBeenCalledWith('c');
  });

  it('gives a card title a heading', () => {
    renderKit(<CardTitle title="基本信息" extra={<button type="button">编辑</button>} />);
    expect(screen.getByRole('heading', { level: 2, name: '基本信息' })).toBeTruthy();
  });

  it('shows -- for an empty value and a details link for clamped text', async () => {
    const { unmount } = renderKit(<LabelValue label="单位" value="" />);
    expect(screen.getByText('--')).toBeTruthy();
    unmount();

    const heights = vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(80);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(44);
    try {
      renderKit(<LabelValue label="简介" value={'很长的简介'.repeat(30)} ellipsis />);
      fireEvent.click(await screen.findByRole('button', { name: '详情' }));
      expect(await screen.findByRole('dialog')).toBeTruthy();
    } finally {
      heights.mockRestore();
      vi.restoreAllMocks();
    }
  });

  it('offers no details link when the text fits', async () => {
    renderKit(<LabelValue label="简介" value="短" ellipsis />);
    await act(async () => {});
    expect(screen.queryByRole('button', { name: '详情' })).toBeNull();
  });

  it('draws one colon: none without a label, and a text label loses its own', () => {
    const { container } = renderKit(
      <>
        <LabelValue label={null} value="admin" />
        <LabelValue label="用户名：" value="demo1" />
        <LabelValue label="Name:" value="Demo" />
      </>,
    );
    const labels = Array.from(container.querySelectorAll('.kit-label-value__label')).map((el) => el.textContent);
    // The style appends the colon to each label element.
    expect(labels).toEqual(['用户名', 'Name']);
    expect(container.querySelectorAll('.kit-label-value')).toHaveLength(3);
  });
});

describe('LoadMoreSelect rules', () => {
  it('loads more within 10 px of the bottom only', () => {
    expect(isNearBottom({ scrollHeight: 500, clientHeight: 200, scrollTop: 290 })).toBe(true);
    expect(isNearBottom({ scrollHeight: 500, clientHeight: 200, scrollTop: 289 })).toBe(false);
  });

  it('throttles to one call per 50 ms', () => {
    let now = 0;
    const fn = vi.fn();
    const throttled = throttle(fn, 50, () => now);
    throttled();
    now = 49;
    throttled();
    expect(fn).toHaveBeenCalledTimes(1);
    now = 50;
    throttled();
    expect(fn).toHaveBeenCalledTimes(2);
  });
});

describe('ButtonGroup permissions', { timeout: 20_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('leaves out buttons whose code the admin lacks', async () => {
    localStorage.setItem('AdminToken', 't');
    vi.spyOn(api, 'get').mockResolvedValue(ok(operator(['home'], ['user:view'])));
    renderKit(
      <ButtonGroup
        items={[
          { key: 'view', text: '查看', permission: { codes: ['user:view'] } },
          { key: 'export', text: '导出', permission: { codes: ['user:export'] } },
          { key: 'free', text: '刷新' },
        ]}
      />,
    );
    expect(await screen.findByRole('button', { name: '查看' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '刷新' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '导出' })).toBeNull();
  });
});
