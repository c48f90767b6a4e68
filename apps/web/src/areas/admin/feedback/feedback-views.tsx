import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AdminFeedbackItem, FeedbackStatus } from '@contest/shared';

const STATUS_COLORS: Record<FeedbackStatus, string> = { OPEN: 'warning', REPLIED: 'success', CLOSED: 'default' };

export function FeedbackStatusTag({ status }: { status: FeedbackStatus }) {
  const { t } = useTranslation('admin');
  return <Tag color={STATUS_COLORS[status]}>{t(`feedback.status.${status}`)}</Tag>;
}

/** How a participant is named: their name, else their username. */
export const participantOf = (owner: AdminFeedbackItem['owner']) => owner.name || owner.username;
