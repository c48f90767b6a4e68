import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SheetViewStatus } from '@contest/shared';

const COLORS: Record<SheetViewStatus, string> = { NONE: 'default', DRAFT: 'processing', SUBMITTED: 'success', RETURNED: 'warning' };

/** 未评 / 草稿 / 已提交 / 被退回. */
export function SheetStatusTag({ status }: { status: SheetViewStatus }) {
  const { t } = useTranslation('review');
  return (
    <Tag color={COLORS[status]} data-testid="sheet-status">
      {t(`sheetStatus.${status}`)}
    </Tag>
  );
}
