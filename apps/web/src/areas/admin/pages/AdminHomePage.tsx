import type { ReactNode } from 'react';
import { Button, Card, Col, Empty, Result, Row, Skeleton, theme } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DASHBOARD_DAYS, type AdminDashboard, type PrelimDocStatus, type TeamStatus } from '@contest/shared';
import { CardTitle } from '../../../components/admin-kit/CardTitle';
import { formatDateTimeLabel } from '../../../components/admin-kit/kit-data';
import { ADMIN_QUERY_KEYS, fetchDashboard } from '../admin-api';
import './admin-home.css';

interface Bar {
  key: string;
  label: string;
  count: number;
  color: string;
}

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

/** Horizontal bars: label, bar scaled to the largest value, count. Plain CSS, no chart library. */
function BarList({ bars, testId }: { bars: Bar[]; testId: string }) {
  const { t } = useTranslation('admin');
  const max = Math.max(0, ...bars.map((b) => b.count));
  if (max === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('pages.home.empty')} />;
  return (
    <ul className="home-bars" data-testid={testId}>
      {bars.map((b) => (
        <li key={b.key} className="home-bars__row">
          <span className="home-bars__label" title={b.label}>
            {b.label}
          </span>
          <span className="home-bars__track">
            <span
              className="home-bars__fill"
              style={{ width: `${Math.max(b.count > 0 ? 2 : 0, (b.count / max) * 100)}%`, background: b.color }}
            />
          </span>
          <span className="home-bars__count">{b.count}</span>
        </li>
      ))}
    </ul>
  );
}

/** Column chart of registrations per day; the figures are also in the label for screen readers. */
function DailyColumns({ days }: { days: AdminDashboard['registrationsPerDay'] }) {
  const { t } = useTranslation('admin');
  const max = Math.max(0, ...days.map((d) => d.count));
  const total = days.reduce((n, d) => n + d.count, 0);
  if (max === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('pages.home.empty')} />;
  // One label a week, counted back from today: legible on a phone, and weekdays line up.
  const labelEvery = 7;
  return (
    <figure className="home-columns" data-testid="home-registrations">
      <figcaption className="home-columns__summary">
        {t('pages.home.registrationsSummary', { days: days.length, total, max })}
      </figcaption>
      <div className="home-columns__plot" role="img" aria-label={t('pages.home.registrationsSummary', { days: days.length, total, max })}>
        <span className="home-columns__max">{max}</span>
        {days.map((d) => {
          const text = t('pages.home.dayCount', { date: d.date, count: d.count });
          return (
            <span key={d.date} className="home-columns__col" title={text}>
              {d.count > 0 && <span className="home-columns__value">{d.count}</span>}
              <span className="home-columns__bar" style={{ height: `${(d.count / max) * 100}%` }} />
            </span>
          );
        })}
      </div>
      <div className="home-columns__axis" aria-hidden="true">
        {days.map((d, i) => (
          <span key={d.date} className="home-columns__tick">
            {(days.length - 1 - i) % labelEvery === 0 ? dayjs(d.date).format('MM-DD') : ''}
          </span>
        ))}
      </div>
    </figure>
  );
}

function StatCard({ title, value, hint, testId }: { title: string; value: number; hint?: ReactNode; testId: string }) {
  return (
    <Card className="home-stat" size="small" data-testid={testId}>
      <div className="home-stat__title">{title}</div>
      <div className="home-stat__value">{value.toLocaleString()}</div>
      <div className="home-stat__hint">{hint ?? '\u00a0'}</div>
    </Card>
  );
}

function ChartCard({ title, loading, children }: { title: string; loading: boolean; children: ReactNode }) {
  return (
    <Card className="home-chart">
      <CardTitle title={title} />
      {loading ? <Skeleton active paragraph={{ rows: 5 }} title={false} /> : children}
    </Card>
  );
}

/** 首页 (/admin/home): the figures an operator wants at a glance, from GET /admin/dashboard. */
export function AdminHomePage() {
  const { t, i18n } = useTranslation('admin');
  const english = (i18n.resolvedLanguage ?? i18n.language).startsWith('en');
  const { token } = theme.useToken();
  const query = useQuery({ queryKey: ADMIN_QUERY_KEYS.dashboard, queryFn: fetchDashboard });
  const d = query.data;
  const loading = query.isPending;

  const statusColor: Record<TeamStatus, string> = {
    DRAFT: token.colorTextQuaternary,
    SUBMITTED: token.colorPrimary,
    APPROVED: token.colorSuccess,
    REVISING: token.colorWarning,
    REJECTED: token.colorError,
  };
  const prelimColor: Record<PrelimDocStatus, string> = { ...statusColor, NOT_FILLED: token.colorTextTertiary };

  const stats = d?.totals;
  return (
    <section className="admin-page admin-home" data-testid="admin-home" aria-busy={loading}>
      <div className="admin-home__head">
        <div>
          <h1 className="admin-page__title admin-home__title">{t('titles.home')}</h1>
          <p className="admin-home__subtitle">
            {t('pages.home.subtitle')}
            {query.dataUpdatedAt > 0 && (
              <span className="admin-home__updated">
                {t('pages.home.updatedAt', { time: formatDateTimeLabel(new Date(query.dataUpdatedAt).toISOString()) })}
              </span>
            )}
          </p>
        </div>
        <Button icon={<ReloadOutlined />} loading={query.isFetching} onClick={() => void query.refetch()}>
          {t('pages.home.refresh')}
        </Button>
      </div>

      {query.isError && !d ? (
        <Result
          status="warning"
          title={t('pages.home.loadFailed')}
          extra={
            <Button type="primary" onClick={() => void query.refetch()}>
              {t('pages.home.retry')}
            </Button>
          }
        />
      ) : (
        <>
          <Row gutter={[16, 16]} className="admin-home__stats">
            {loading || !stats ? (
              Array.from({ length: 4 }, (_, i) => (
                <Col key={i} xs={12} lg={6}>
                  <Card size="small" className="home-stat">
                    <Skeleton active paragraph={{ rows: 1 }} />
                  </Card>
                </Col>
              ))
            ) : (
              <>
                <Col xs={12} lg={6}>
                  <StatCard
                    testId="home-stat-users"
                    title={t('pages.home.totals.users')}
                    value={stats.users}
                    hint={t('pages.home.totals.usersToday', { count: stats.usersToday })}
                  />
                </Col>
                <Col xs={12} lg={6}>
                  <StatCard testId="home-stat-teams" title={t('pages.home.totals.teams')} value={stats.teams} />
                </Col>
                <Col xs={12} lg={6}>
                  <StatCard
                    testId="home-stat-teams-submitted"
                    title={t('pages.home.totals.teamsSubmitted')}
                    value={stats.teamsSubmitted}
                    hint={t('pages.home.totals.teamsSubmittedHint', { percent: percent(stats.teamsSubmitted, stats.teams) })}
                  />
                </Col>
                <Col xs={12} lg={6}>
                  <StatCard
                    testId="home-stat-prelim"
                    title={t('pages.home.totals.prelimSubmitted')}
                    value={stats.prelimSubmitted}
                    hint={t('pages.home.totals.prelimSubmittedHint')}
                  />
                </Col>
              </>
            )}
          </Row>

          <Row gutter={[16, 16]}>
            <Col xs={24}>
              <ChartCard title={t('pages.home.registrations', { days: d?.registrationsPerDay.length ?? DASHBOARD_DAYS })} loading={loading}>
                {d && <DailyColumns days={d.registrationsPerDay} />}
              </ChartCard>
            </Col>
            <Col xs={24} lg={8}>
              <ChartCard title={t('pages.home.teamsByStatus')} loading={loading}>
                {d && (
                  <BarList
                    testId="home-teams-by-status"
                    bars={d.teamsByStatus.map((r) => ({
                      key: r.key,
                      label: t(`pages.home.teamStatus.${r.key}`),
                      count: r.count,
                      color: statusColor[r.key],
                    }))}
                  />
                )}
              </ChartCard>
            </Col>
            <Col xs={24} lg={8}>
              <ChartCard title={t('pages.home.teamsByTrack')} loading={loading}>
                {d && (
                  <BarList
                    testId="home-teams-by-track"
                    bars={d.teamsByTrack.map((r) => ({
                      key: r.key ?? '',
                      // English pages take the dictionary's English name where it has one (docs/decisions.md, "English").
                      label: r.key === null ? t('pages.home.noTrack') : ((english && r.nameEn) || r.name || r.key),
                      count: r.count,
                      color: r.key === null ? token.colorTextQuaternary : token.colorPrimary,
                    }))}
                  />
                )}
              </ChartCard>
            </Col>
            <Col xs={24} lg={8}>
              <ChartCard title={t('pages.home.prelimByStatus')} loading={loading}>
                {d && (
                  <BarList
                    testId="home-prelim-by-status"
                    bars={d.prelimByStatus.map((r) => ({
                      key: r.key,
                      label: t(`pages.home.prelimStatus.${r.key}`),
                      count: r.count,
                      color: prelimColor[r.key],
                    }))}
                  />
                )}
              </ChartCard>
            </Col>
          </Row>
        </>
      )}
    </section>
  );
}
