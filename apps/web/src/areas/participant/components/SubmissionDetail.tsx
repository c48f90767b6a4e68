import type { ReactNode } from 'react';
import { Alert, Button, Card, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { beijingTimeLabel } from '../../../lib/beijing-time';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ContestStatusTag, StatusHistory } from '../../../components/contest';
import type { SubmissionFlow, SubmissionRecord } from './submission-flow';

/** What a detail page shows for an empty value. */
export const EMPTY = '--';

/** A moment as the detail pages show it, or EMPTY. */
/** Submission and audit times: Beijing time, marked as such (lib/beijing-time.ts). */
export const dateTimeText = (iso: string | null | undefined) => beijingTimeLabel(iso) || EMPTY;

export interface SubmissionDetailProps<P, D> {
  flow: SubmissionFlow<P, D>;
  record: SubmissionRecord;
  /** The record's name; the page's title when it has none. */
  name: string;
  /** Whether 修改 leads back to the form (the record allows it and its status opens the form). */
  formAllowed: boolean;
  /** Notices above the audit reason (in the final, the published results). */
  notices?: ReactNode;
  /** The record's cards. */
  children: ReactNode;
}

/**
 * The frame of the read-only sign-up and materials pages: title with status, 修改 while the form
 * is open, the reviewer's reason when returned or rejected, the cards, then the history.
 */
export function SubmissionDetail<P, D>({ flow, record, name, formAllowed, notices, children }: SubmissionDetailProps<P, D>) {
  const { t } = useTranslation('signup');
  const navigate = useNavigate();
  const { status, auditReason } = record;
  return (
    <div className="contest-page contest-detail" data-testid={flow.testIds.detail}>
      <div className="contest-page__head">
        <Typography.Title level={4} className="contest-page__title">
          {name || t(flow.words.detailTitle)} <ContestStatusTag kind={flow.kind} status={status} />
        </Typography.Title>
        {record.editable && formAllowed && (
          <Button type="primary" icon={<EditOutlined />} onClick={() => void navigate(flow.paths.form)} data-testid={flow.testIds.edit}>
            {t('common.edit')}
          </Button>
        )}
      </div>

      {notices}

      {(status === 'REVISING' || status === 'REJECTED') && (
        <Alert
          className="contest-page__alert"
          type={status === 'REVISING' ? 'warning' : 'error'}
          showIcon
          title={status === 'REVISING' ? t('common.revisingTitle') : t('common.rejectedTitle')}
          description={auditReason ? `${t('common.reason')}：${auditReason}` : undefined}
          data-testid="audit-reason"
        />
      )}

      {children}

      <Card size="small" className="contest-card" title={t('common.history')}>
        <StatusHistory kind={flow.kind} entries={record.history} />
      </Card>
    </div>
  );
}
