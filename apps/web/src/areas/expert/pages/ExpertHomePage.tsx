import { Alert, Button, Card, Empty, Progress, Result, Skeleton, Space, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { ExpertRoundProgress } from '@contest/shared';
import { useFeedback } from '../../../components/feedback';
import { useStaffInfo } from '../../../lib/session';
import type { AgreementRedirectState } from '../components/AgreementGate';
import { ExpertNotices } from '../components/ExpertNotices';
import { ReviewAgreement } from '../components/ReviewAgreement';
import { EXPERT_QUERY_KEYS, acceptAgreement, fetchOverview } from '../expert-api';
import { ROUND_PAGES } from '../paths';
import { ROUND_STATE_COLORS, beijingMinute, roundState } from '../review-format';
import { EXPERT_ACCOUNT_KEY } from '../use-agreement';
import { LiveSessionsCard } from '../live/LiveSessionsPage';
import '../expert.css';

/** What the card's button leads to: the next project needing work (see ReviewDetailPage without id) or the list. */
type NextStep = 'rescore' | 'continue' | 'list';

function nextStepOf(progress: ExpertRoundProgress): NextStep {
  if (!progress.open) return 'list';
  if (progress.returned > 0) return 'rescore';
  if (progress.notStarted + progress.draft > 0) return 'continue';
  return 'list';
}

function RoundCard({ progress, now }: { progress: ExpertRoundProgress; now: Date }) {
  const { t } = useTranslation('expert');
  const navigate = useNavigate();
  const pages = ROUND_PAGES[progress.round];
  const state = roundState(progress, now);
  const percent = progress.assigned > 0 ? Math.round((progress.submitted / progress.assigned) * 100) : 0;
  const step = nextStepOf(progress);
  const window = progress.window;
  const windowText = window
    ? t('home.windowValue', {
        start: beijingMinute(window.start) || t('home.unlimited'),
        end: beijingMinute(window.end) || t('home.unlimited'),
      })
    : t('home.unscheduled');

  return (
    <Card
      className="expert-round"
      data-testid={`round-${progress.round}`}
      title={
        <span className="expert-round__title">
          <h3 className="expert-round__name">{t(`round.${progress.round}`)}</h3>
          <Tag color={ROUND_STATE_COLORS[state]} data-testid="round-state" data-state={state}>
            {t(`home.state.${state}`)}
          </Tag>
        </span>
      }
    >
      <p className="expert-round__window" data-testid="round-window">
        <Typography.Text type="secondary">{t('home.window')}</Typography.Text> {windowText}
      </p>
      <div className="expert-round__progress">
        <Typography.Text type="secondary" id={`progress-${progress.round}`}>
          {t('home.progress')}
        </Typography.Text>
        <Progress
          percent={percent}
          aria-labelledby={`progress-${progress.round}`}
          format={() => t('home.progressValue', { submitted: progress.submitted, assigned: progress.assigned })}
          data-testid="round-progress"
        />
      </div>
      <Space size={[16, 4]} wrap className="expert-round__counts" data-testid="round-counts">
        <span>{t('home.counts.notStarted', { count: progress.notStarted })}</span>
        <span>{t('home.counts.draft', { count: progress.draft })}</span>
        <span>{t('home.counts.submitted', { count: progress.submitted })}</span>
      </Space>
      {progress.returned > 0 && (
        <Alert className="expert-round__returned" type="error" showIcon title={t('home.returned', { count: progress.returned })} data-testid="round-returned" />
      )}
      <div className="expert-round__actions">
        <Button
          type={step === 'list' ? 'default' : 'primary'}
          onClick={() => void navigate(step === 'list' ? pages.list : pages.detail)}
          data-testid="round-next"
        >
          {t(`home.next.${step}`)}
        </Button>
        {step !== 'list' && (
          <Button type="link" onClick={() => void navigate(pages.list)}>
            {t('home.next.list')}
          </Button>
        )}
      </div>
    </Card>
  );
}

/**
 * /expert/index: the review agreement until it is accepted; then the expert's progress per
 * round (window in Beijing time, submitted of assigned, drafts, returned sheets) and the next step.
 */
export function ExpertHomePage() {
  const { t } = useTranslation('expert');
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const info = useStaffInfo('EXPERT');
  const location = useLocation();
  const redirected = Boolean((location.state as AgreementRedirectState | null)?.agreementFrom);
  const agreed = info.data?.agree === true;
  const overview = useQuery({ queryKey: EXPERT_QUERY_KEYS.overview, queryFn: fetchOverview, enabled: agreed });

  const accept = async () => {
    await acceptAgreement();
    // The menus change (the final-review entry appears) and the progress may now be read.
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: EXPERT_ACCOUNT_KEY }),
      queryClient.invalidateQueries({ queryKey: EXPERT_QUERY_KEYS.all }),
    ]);
    void message.success(t('agreement.accepted'));
  };

  if (!info.data) return <Skeleton active />;
  const greeting = (
    // The page's h1 (drawn small by its class).
    <Typography.Title level={1} className="expert-home__greeting">
      {t('home.welcome', { name: info.data.name || info.data.account })}
    </Typography.Title>
  );
  if (!agreed) {
    return (
      <div className="expert-home" data-testid="expert-home">
        {greeting}
        <ReviewAgreement onAccept={accept} redirected={redirected} />
      </div>
    );
  }

  let body;
  if (overview.isPending) {
    body = <Skeleton active paragraph={{ rows: 6 }} data-testid="home-loading" />;
  } else if (overview.isError) {
    body = (
      <Result
        status="warning"
        title={t('home.loadFailed')}
        extra={<Button onClick={() => void overview.refetch()}>{t('common.retry')}</Button>}
      />
    );
  } else {
    // A round with nothing assigned to this expert is not theirs to see.
    const rounds = (overview.data.rounds ?? []).filter((r) => r.assigned > 0);
    const now = new Date();
    body =
      rounds.length === 0 ? (
        <Card>
          <Empty description={t('home.empty')} data-testid="home-empty">
            <Typography.Text type="secondary">{t('home.emptyHint')}</Typography.Text>
          </Empty>
        </Card>
      ) : (
        <div className="expert-home__rounds">
          {rounds.map((progress) => (
            <RoundCard key={progress.round} progress={progress} now={now} />
          ))}
        </div>
      );
  }

  return (
    <div className="expert-home" data-testid="expert-home">
      {greeting}
      {body}
      <LiveSessionsCard />
      <ExpertNotices />
    </div>
  );
}
