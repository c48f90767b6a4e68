import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SheetViewStatus } from '@contest/shared';
import { SHEET_STATUS_COLORS } from '../review-format';

/** 未评 / 草稿 / 已提交 / 被退回 / 已回避 (docs/rules/review.md, "Abstaining"). */
export function SheetStatusTag({ status }: { status: SheetViewStatus | 'ABSTAINED' }) {
  const { t } = useTranslation('expert');
  return (
    <Tag color={SHEET_STATUS_COLORS[status]} data-testid="sheet-status" data-status={status}>
      {t(`status.${status}`)}
    </Tag>
  );
}
