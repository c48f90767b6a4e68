import { Button, Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { SheetView } from '@contest/shared';
import { formatDateTimeLabel } from '../../../components/admin-kit';
import { SheetStatusTag } from './SheetStatusTag';

/**
 * A sheet the expert abstained from (docs/rules/review.md, "Abstaining"), read-only: its state,
 * when, the reason, and what follows (the admins arrange another expert; the project has left the
 * expert's list, so its materials are no longer shown).
 */
export function AbstainedSheet({ sheet, listPath }: { sheet: SheetView; listPath: string }) {
  const { t } = useTranslation('expert');
  const navigate = useNavigate();
  return (
    <Card className="expert-abstained" title={<h2 className="expert-score__title">{t('abstain.stateTitle')}</h2>} data-testid="abstained-sheet">
      <Typography.Paragraph>{t('abstain.stateText')}</Typography.Paragraph>
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'status', label: t('list.status'), children: <SheetStatusTag status="ABSTAINED" /> },
          { key: 'at', label: t('abstain.at'), children: formatDateTimeLabel(sheet.updatedAt) ?? '--' },
          {
            key: 'reason',
            label: t('abstain.reason'),
            children: (
              <span className="expert-abstained__reason" data-testid="abstained-reason">
                {sheet.returnReason || '--'}
              </span>
            ),
          },
        ]}
      />
      <Button type="primary" onClick={() => void navigate(listPath)} data-testid="abstained-back">
        {t('detail.back')}
      </Button>
    </Card>
  );
}
