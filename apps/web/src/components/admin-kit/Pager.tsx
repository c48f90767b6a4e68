import type { ReactNode } from 'react';
import { Pagination, type PaginationProps } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT } from '@contest/shared';

export interface PagerProps {
  page: number;
  size?: number;
  total: number;
  onChange(page: number, size: number): void;
}

/** Paging (docs/rules/screens.md, "Shared widgets"): default size 10; layout previous, pager, next, jumper. */
export function Pager({ page, size = PAGE_SIZE_DEFAULT, total, onChange }: PagerProps) {
  const { t } = useTranslation('admin');
  if (total <= 0) return null;
  // The arrows are named in the page's language: antd's icons carry English names (left, right),
  // which a screen reader read out on Chinese pages.
  // As antd draws them: the list item takes focus, the button inside does not.
  const last = Math.max(1, Math.ceil(total / size));
  const arrow = (label: string, icon: ReactNode, disabled: boolean) => (
    <button type="button" className="ant-pagination-item-link" tabIndex={-1} disabled={disabled} aria-label={label}>
      {icon}
    </button>
  );
  const itemRender: PaginationProps['itemRender'] = (_page, type, element) => {
    if (type === 'prev') return arrow(t('kit.prevPage'), <LeftOutlined aria-hidden />, page <= 1);
    if (type === 'next') return arrow(t('kit.nextPage'), <RightOutlined aria-hidden />, page >= last);
    return element;
  };
  return (
    <Pagination
      className="kit-pager"
      data-testid="kit-pager"
      current={page}
      pageSize={size}
      total={total}
      showQuickJumper
      showSizeChanger={false}
      itemRender={itemRender}
      onChange={onChange}
    />
  );
}
