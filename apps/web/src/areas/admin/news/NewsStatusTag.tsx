import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { NewsStatus } from '@contest/shared';

const COLORS = { DRAFT: 'default', PUBLISHED: 'success', OFFLINE: 'warning', SCHEDULED: 'processing' } as const;

/** 草稿 / 已发布 / 已下线, and 定时发布 for a published article whose time is still ahead. */
export function NewsStatusTag({ status, scheduled }: { status: NewsStatus; scheduled: boolean }) {
  const { t } = useTranslation('newsAdmin');
  const shown = status === 'PUBLISHED' && scheduled ? 'SCHEDULED' : status;
  return (
    <Tag color={COLORS[shown]} data-testid="news-status">
      {t(`status.${shown}`)}
    </Tag>
  );
}
