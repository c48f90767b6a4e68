import { Button, Card, Empty, Result, Skeleton, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { LiveJudgeSessionRow, LiveSessionStatus } from '@contest/shared';
import { EXPERT_PATHS } from '../paths';
import { LIVE_JUDGE_KEYS, fetchJudgeSessions } from './live-api';
import './live-judge.css';

export const STATUS_COLORS: Record<LiveSessionStatus, string> = { PLANNED: 'default', LIVE: 'processing', ENDED: 'success' };

export const judgePath = (id: string) => `${EXPERT_PATHS.live}/${encodeURIComponent(id)}`;

/** One session as a large tap target. */
export function SessionLink({ row }: { row: LiveJudgeSessionRow }) {
  const { t } = useTranslation('live');
  return (
    <li className="live-sessions__item">
      <Link to={judgePath(row.id)} className="live-sessions__link" data-testid="live-session">
        <span className="live-sessions__name">{row.name}</span>
        <span className="live-sessions__meta">
          <Tag color={STATUS_COLORS[row.status]}>{t(`status.${row.status}`)}</Tag>
          {t('home.venueDate', { venue: row.venue, date: row.date })}
        </span>
      </Link>
    </li>
  );
}

/** /expert/live: the sessions the expert judges (GET /expert/live/sessions), each opening the phone page. */
export function LiveSessionsPage() {
  const { t } = useTranslation('live');
  const sessions = useQuery({ queryKey: LIVE_JUDGE_KEYS.sessions, queryFn: fetchJudgeSessions });
  let body;
  if (sessions.isPending) body = <Skeleton active />;
  else if (sessions.isError)
    body = <Result status="warning" title={t('list.loadFailed')} extra={<Button onClick={() => void sessions.refetch()}>{t('list.retry')}</Button>} />;
  else if (sessions.data.length === 0) body = <Empty description={t('list.empty')} data-testid="live-sessions-empty" />;
  else
    body = (
      <ul className="live-sessions">
        {sessions.data.map((row) => (
          <SessionLink key={row.id} row={row} />
        ))}
      </ul>
    );
  return (
    <div className="live-judge" data-testid="live-sessions-page">
      <Typography.Title level={1} className="live-judge__session">
        {t('list.title')}
      </Typography.Title>
      <Card>{body}</Card>
    </div>
  );
}

/**
 * The home page's entry (an agreed expert): shown only when the expert judges a session.
 * Quiet when the list cannot be read: the home page has its own content.
 */
export function LiveSessionsCard() {
  const { t } = useTranslation('live');
  const sessions = useQuery({ queryKey: LIVE_JUDGE_KEYS.sessions, queryFn: fetchJudgeSessions, retry: false });
  const rows = (sessions.data ?? []).filter((r) => r.status !== 'ENDED');
  if (rows.length === 0) return null;
  return (
    <Card
      className="live-sessions-card"
      data-testid="live-sessions-card"
      title={<h2 className="live-sessions-card__title">{t('home.title')}</h2>}
      extra={<Link to={EXPERT_PATHS.live}>{t('list.title')}</Link>}
    >
      <Typography.Paragraph type="secondary">{t('home.hint')}</Typography.Paragraph>
      <ul className="live-sessions">
        {rows.map((row) => (
          <SessionLink key={row.id} row={row} />
        ))}
      </ul>
    </Card>
  );
}
