import { Button, Result, Spin, Typography } from 'antd';
import { ArrowLeftOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIVE_QUERY_KEYS, fetchRunningOrder } from './live-api';
import { liveErrorText } from './live-errors';
import { livePaths } from './LiveSessionsPage';
import './live.css';

/**
 * 答辩顺序表: the printable running order (GET .../running-order): order, time slot from the
 * start time (Beijing time), project, team, organisation, the judges left out. The print style
 * shows only the sheet (live.css, @media print).
 */
export function RunningOrderPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('liveAdmin');
  const { t: ta } = useTranslation('admin');
  const sheet = useQuery({ queryKey: LIVE_QUERY_KEYS.runningOrder(id), queryFn: () => fetchRunningOrder(id) });

  if (sheet.isLoading) return <Spin className="live-loading" />;
  if (!sheet.data) return <Result status="warning" title={<h1 className="admin-result-title">{liveErrorText(sheet.error) ?? t('msg.sessionNotFound')}</h1>} />;
  const { session, judges, rows } = sheet.data;
  const withSlots = rows.some((r) => r.slot);

  return (
    <section className="admin-page" data-testid="live-running-order-page">
      <div className="live-head live-no-print">
        <div>
          <Link to={livePaths.session(id)} className="live-back">
            <ArrowLeftOutlined /> {ta('titles.liveSession')}
          </Link>
          <h1 className="admin-page__title">{ta('titles.liveRunningOrder')}</h1>
        </div>
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="live-print">
          {t('plan.print')}
        </Button>
      </div>
      <article className="live-print" data-testid="live-print-sheet">
        <h2 className="live-print__title">{t('plan.printTitle', { name: session.name })}</h2>
        <p className="live-print__meta">
          {t('plan.printMeta', { date: session.date, venue: session.venue, presentation: session.presentationMinutes, qa: session.qaMinutes })}
        </p>
        <p className="live-print__meta">{t('plan.printJudges', { names: judges.map((j) => t('plan.judgeName', { name: j.name, code: j.code })).join(t('chair.listSep')) || t('plan.none') })}</p>
        <div className="live-print__scroll">
          <table className="live-print__table">
            <thead>
              <tr>
                <th scope="col">{t('plan.order')}</th>
                {withSlots && <th scope="col">{t('plan.slot')}</th>}
                <th scope="col">{t('plan.project')}</th>
                <th scope="col">{t('plan.team')}</th>
                <th scope="col">{t('plan.org')}</th>
                <th scope="col">{t('plan.excludedJudges')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.projectId}>
                  <td>{r.order}</td>
                  {withSlots && <td>{r.slot ?? '--'}</td>}
                  <td>{r.projectName}</td>
                  <td>{r.teamName}</td>
                  <td>{r.orgName}</td>
                  <td>{r.excludedJudges.length ? r.excludedJudges.join(t('chair.listSep')) : '--'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {rows.length === 0 && <Typography.Text type="secondary">{t('plan.noProjects')}</Typography.Text>}
      </article>
    </section>
  );
}
