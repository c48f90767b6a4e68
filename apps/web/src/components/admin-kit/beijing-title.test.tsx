/**
 * Time columns and time fields of the console say they are Beijing time (docs/decisions.md,
 * "English"): the title or label carries `（北京时间）` / `(Beijing time)`, the cells stay bare.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { Page } from '@contest/shared';
import { changeLocale } from '../../i18n';
import { DataTable } from './DataTable';
import { DetailLayout } from './DetailLayout';
import { beijingTitle, formatDateTimeLabel } from './kit-data';
import { SearchTable } from './SearchTable';
import { renderKit } from './render-kit';

interface Row {
  id: string;
  createdAt: string;
}

const rows: Row[] = [{ id: 'r1', createdAt: '2025-06-30T16:00:00.000Z' }];

afterEach(() => {
  changeLocale('zh-cn');
  vi.restoreAllMocks();
});

describe('Beijing time in titles', { timeout: 20_000 }, () => {
  it('a DataTable time column: the title says Beijing time, the cell is the bare Beijing clock', () => {
    renderKit(<DataTable<Row> rowKey="id" columns={[{ title: '审核时间', dataIndex: 'createdAt', dateTime: true }]} dataSource={rows} />);
    // The zone sits on a line of its own (a block), which an accessible name may read with a space.
    const header = screen.getByRole('columnheader', { name: /^审核时间\s?（北京时间）$/ });
    expect(header.textContent).toBe('审核时间（北京时间）');
    expect(header.querySelector('.kit-time-title__zone')?.textContent).toBe('（北京时间）');
    expect(screen.getByRole('cell').textContent).toBe('2025-07-01 00:00:00');
  });

  it('a SearchTable time column, sortable, in English', async () => {
    const fetchPage = vi.fn(async (): Promise<Page<Row>> => ({ list: rows, page: 1, size: 10, total: 1 }));
    renderKit(
      <SearchTable<Row> queryKey={['bj']} fetchPage={fetchPage} rowKey="id" columns={[{ title: 'Submitted', dataIndex: 'createdAt', key: 'createdAt', dateTime: true, sorter: true }]} />,
      { search: '?lang=en' },
    );
    expect(await screen.findByText('2025-07-01', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /^Submitted \(Beijing time\)/ })).toBeTruthy();
  });

  it('a detail field: the label says Beijing time, the value is the bare Beijing clock', () => {
    renderKit(<DetailLayout sections={[{ key: 's', title: '信息', items: [{ label: '提交时间', value: rows[0]!.createdAt, dateTime: true }, { label: '单位名称', value: '某医院' }] }]} />);
    expect(screen.getByText('提交时间（北京时间）')).toBeTruthy();
    expect(screen.getByText('2025-07-01 00:00:00')).toBeTruthy();
    expect(screen.getByText('单位名称')).toBeTruthy();
  });

  it('beijingTitle keeps a title that already says it; formatDateTimeLabel marks a time in a sentence', () => {
    changeLocale('zh-cn');
    expect(beijingTitle('时间（北京时间）')).toBe('时间（北京时间）');
    expect(beijingTitle('审核时间')).toBe('审核时间（北京时间）');
    expect(formatDateTimeLabel('2025-06-30T16:00:00.000Z')).toBe('2025-07-01 00:00:00（北京时间）');
    expect(formatDateTimeLabel(null)).toBeNull();
    changeLocale('en');
    expect(beijingTitle('Reviewed at')).toBe('Reviewed at (Beijing time)');
    expect(beijingTitle('Time (Beijing time)')).toBe('Time (Beijing time)');
  });
});
