import { useMemo, type ReactNode } from 'react';
import { Card, Descriptions, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ContestAttachment, StatusHistoryEntry } from '@contest/shared';
import { AttachmentList } from '../contest/AttachmentList';
import { StatusHistory } from '../contest/StatusHistory';
import { useDictLabels } from '../contest/contest-common';
import { EMPTY_CELL, isEmptyCell } from './DataTable';
import { beijingTitle, formatDateTime } from './kit-data';
import './kit.css';

export interface DetailItem {
  label: ReactNode;
  value?: ReactNode;
  /** The value is a code of this dictionary type: shown by its name. */
  dict?: string;
  /** Columns the item spans (long texts: the whole row). */
  span?: number;
  /** Custom rendering of the value ('--' still shown when it renders nothing). */
  render?(value: ReactNode): ReactNode;
  /** The value is an ISO time: shown `YYYY-MM-DD HH:mm:ss` on the Beijing clock, the label saying so. */
  dateTime?: boolean;
}

export interface DetailSection {
  key: string;
  title: ReactNode;
  items?: readonly DetailItem[];
  /** Anything else (a members table...), after the items. */
  content?: ReactNode;
  /** Beside the section's title. */
  extra?: ReactNode;
  /** Items per row on wide screens (default 2; one on phones). */
  columns?: number;
}

export interface DetailAttachmentGroup {
  label: ReactNode;
  files: readonly (ContestAttachment | null)[];
}

export interface DetailLayoutProps {
  title?: ReactNode;
  /** Beside the title (a status tag). */
  status?: ReactNode;
  /** Right of the title (buttons). */
  extra?: ReactNode;
  /** Between the head and the sections (an audit reason...). */
  alert?: ReactNode;
  loading?: boolean;
  sections: readonly DetailSection[];
  attachments?: readonly DetailAttachmentGroup[];
  attachmentsTitle?: ReactNode;
  history?: { kind: 'team' | 'prelim'; entries: readonly StatusHistoryEntry[]; title?: ReactNode };
  /**
   * The title's heading level: 1 on a page (the record is the page's subject, and the audit queue
   * moves focus to it), 2 inside a drawer over a page that has its own h1. Drawn the same size.
   */
  headingLevel?: 1 | 2;
}

/**
 * A record's detail page: label/value sections (dictionary codes by name, '--' when empty,
 * long texts wrapped), the attachments with preview, and the status history timeline.
 */
export function DetailLayout({ title, status, extra, alert, loading, sections, attachments, attachmentsTitle, history, headingLevel = 1 }: DetailLayoutProps) {
  const { t } = useTranslation('admin');
  const dictTypes = useMemo(
    () => [...new Set(sections.flatMap((s) => (s.items ?? []).flatMap((i) => (i.dict ? [i.dict] : []))))].sort(),
    [sections],
  );
  const labels = useDictLabels(dictTypes);
  if (loading) return <Skeleton active paragraph={{ rows: 8 }} data-testid="detail-loading" />;

  const valueOf = (item: DetailItem): ReactNode => {
    let value = item.value;
    if (item.dict && typeof value === 'string' && value !== '') value = labels.data?.[item.dict]?.[value] ?? value;
    if (item.dateTime) value = typeof value === 'string' ? formatDateTime(value) : value;
    if (item.render) value = item.render(value);
    return isEmptyCell(value) ? EMPTY_CELL : value;
  };

  return (
    <div className="kit-detail" data-testid="kit-detail">
      {(title || status || extra) && (
        <div className="kit-detail__head">
          <Typography.Title level={headingLevel} className="kit-detail__title">
            {title} {status}
          </Typography.Title>
          {extra && <div className="kit-detail__extra">{extra}</div>}
        </div>
      )}
      {alert}
      {sections.map((section) => (
        <Card key={section.key} size="small" className="kit-detail__card" title={section.title} extra={section.extra} data-testid={`detail-section-${section.key}`}>
          {section.items && section.items.length > 0 && (
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 1, md: section.columns ?? 2, lg: section.columns ?? 2, xl: section.columns ?? 2, xxl: section.columns ?? 2 }}
              items={section.items.map((item, i) => ({
                key: i,
                label: item.dateTime ? beijingTitle(item.label) : item.label,
                span: item.span,
                children: <div className="kit-detail__value">{valueOf(item)}</div>,
              }))}
            />
          )}
          {section.content}
        </Card>
      ))}
      {attachments && (
        <Card size="small" className="kit-detail__card" title={attachmentsTitle ?? t('kit.attachments')} data-testid="detail-attachments">
          <Descriptions
            column={1}
            size="small"
            layout="vertical"
            items={attachments.map((group, i) => ({ key: i, label: group.label, children: <AttachmentList files={group.files} /> }))}
          />
        </Card>
      )}
      {history && (
        <Card size="small" className="kit-detail__card" title={history.title ?? t('kit.history')} data-testid="detail-history">
          <StatusHistory kind={history.kind} entries={history.entries} audience="staff" />
        </Card>
      )}
    </div>
  );
}
