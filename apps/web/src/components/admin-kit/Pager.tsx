import { Pagination } from 'antd';
import { PAGE_SIZE_DEFAULT } from '@contest/shared';

export interface PagerProps {
  page: number;
  size?: number;
  total: number;
  onChange(page: number, size: number): void;
}

/** Paging (docs/rules/screens.md, "Shared widgets"): default size 10; layout previous, pager, next, jumper. */
export function Pager({ page, size = PAGE_SIZE_DEFAULT, total, onChange }: PagerProps) {
  if (total <= 0) return null;
  return (
    <Pagination
      className="kit-pager"
      data-testid="kit-pager"
      current={page}
      pageSize={size}
      total={total}
      showQuickJumper
      showSizeChanger={false}
      onChange={onChange}
    />
  );
}
