import { Popover, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConflictView } from '@contest/shared';

/** 回避 n: the experts left out of a project for a conflict of interest, each with why (a popover, keyboard reachable). */
export function ConflictTag({ conflicts }: { conflicts: readonly ConflictView[] }) {
  const { t } = useTranslation('review');
  if (conflicts.length === 0) return null;
  return (
    <Popover
      trigger={['hover', 'click', 'focus']}
      title={t('conflicts.title')}
      content={<ConflictList conflicts={conflicts} />}
    >
      <Tag color="orange" className="review-tag--button" tabIndex={0} role="button" data-testid="conflict-tag">
        {t('conflicts.count', { count: conflicts.length })}
      </Tag>
    </Popover>
  );
}

/** Each conflicted expert and the cause the server found. */
export function ConflictList({ conflicts }: { conflicts: readonly ConflictView[] }) {
  const { t } = useTranslation('review');
  if (conflicts.length === 0) return <span className="review-muted">{t('conflicts.none')}</span>;
  return (
    <ul className="review-conflicts" data-testid="conflict-list">
      {conflicts.map((c) => (
        <li key={c.expertId}>
          <strong>
            {c.expertCode} {c.expertName}
          </strong>
          {t('common.colon')}
          {c.cause.text}
        </li>
      ))}
    </ul>
  );
}
