import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SheetViewStatus } from '@contest/shared';

/** A sheet as the admin sees it: an expert may also have abstained (docs/rules/review.md, "Abstaining"). */
type Status = SheetViewStatus | 'ABSTAINED';
const COLORS: Record<Status, string> = { NONE: 'default', DRAFT: 'processing', SUBMITTED: 'success', RETURNED: 'warning', ABSTAINED: 'default' };

/** 未评 / 草稿 / 已提交 / 被退回 / 已回避. */
export function SheetStatusTag({ status }: { status: Status }) {
  const { t } = useTranslation('review');
  return (
    <Tag color={COLORS[status]} data-testid="sheet-status">
      {t(`sheetStatus.${status}`)}
    </Tag>
  );
}
