import { useEffect, useState } from 'react';
import { Alert, Button, Input, Result, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { type Criterion, type LiveJudgeState, type LiveOwnSheet } from '@contest/shared';
import { formatDateTimeLabel } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { useCriterionText } from '../../../lib/criterion-text';
import { useLiveStream } from '../../../lib/live-stream';
import { formatClock, useLiveTimer } from '../../../lib/live-timer';
import { formatPoints } from '../review-format';
import { useAgreementLost } from '../use-agreement';
import { EXPERT_PATHS } from '../paths';
import { fetchJudgeState, judgeEventsPath } from './live-api';
import { clearStoredScore, readStoredScore } from './score-store';
import { PointsStepper } from './PointsStepper';
import { useScoreSender, type ScoreSender } from './use-score-sender';
import './live-judge.css';

type Current = NonNullable<LiveJudgeState['current']>;

const COMMENT_MAX = 1000;

const totalOf = (scores: Record<string, number>) => Object.values(scores).reduce((sum, v) => sum + v, 0);
const maxOf = (criteria: readonly Criterion[]) => criteria.reduce((sum, c) => sum + c.max, 0);

/** A judge's own sheet, read-only (submitted, or on its way). */
function SheetView({ criteria, scores, comment }: { criteria: Criterion[]; scores: Record<string, number>; comment: string }) {
  const { t } = useTranslation('live');
  const text = useCriterionText();
  return (
    <div className="live-judge__sheet" data-testid="own-sheet">
      <dl className="live-judge__marks">
        {criteria.map((c) => (
          <div key={c.key} className="live-judge__mark">
            <dt>{text(c).name}</dt>
            <dd data-testid={`own-${c.key}`}>{t('judge.points', { value: typeof scores[c.key] === 'number' ? formatPoints(scores[c.key]!) : '--', max: c.max })}</dd>
          </div>
        ))}
        <div className="live-judge__mark live-judge__mark--total">
          <dt>{t('judge.total')}</dt>
          <dd data-testid="own-total">{t('judge.totalValue', { total: formatPoints(totalOf(scores)), max: maxOf(criteria) })}</dd>
        </div>
      </dl>
      <Typography.Text type="secondary">{t('judge.comment')}</Typography.Text>
      <p className="live-judge__comment-text">{comment || '--'}</p>
    </div>
  );
}

type Values = { scores: Record<string, number>; comment: string };

/** What the form starts from: the device's copy, else a returned sheet (or a desk draft) as the server kept it. */
function initialValues(sessionId: string, projectId: string, own: LiveOwnSheet | null): Values {
  const stored = readStoredScore(sessionId, projectId);
  if (stored) return { scores: stored.scores, comment: stored.comment };
  return own && own.status !== 'SUBMITTED' ? { scores: own.scores, comment: own.comment } : { scores: {}, comment: '' };
}

interface FormProps {
  criteria: Criterion[];
  /** Read once, when the form mounts (again after a refused send: the values come back from the device). */
  initial: () => Values;
  enabled: boolean;
  sender: ScoreSender;
}

/** The score form: one stepper per criterion, the total, the comment, 提交评分 behind a confirmation. */
function ScoreForm({ criteria, initial, enabled, sender }: FormProps) {
  const { t } = useTranslation('live');
  const text = useCriterionText();
  const { modal } = useFeedback();
  const [start] = useState(initial);
  const [scores, setScores] = useState<Record<string, number>>(start.scores);
  const [comment, setComment] = useState(start.comment);
  const [errors, setErrors] = useState<{ scores?: string; comment?: string }>({});
  const total = totalOf(scores);

  const change = (next: { scores: Record<string, number>; comment: string }) => {
    setScores(next.scores);
    setComment(next.comment);
    sender.keep(next);
  };

  const submit = () => {
    const missing = criteria.some((c) => typeof scores[c.key] !== 'number');
    const found = { ...(missing ? { scores: t('judge.scoreRequired') } : {}), ...(comment.trim() ? {} : { comment: t('judge.commentRequired') }) };
    setErrors(found);
    if (found.scores || found.comment) return;
    const values = { scores: Object.fromEntries(criteria.map((c) => [c.key, scores[c.key]!])), comment: comment.trim() };
    modal.confirm({
      title: t('judge.confirmTitle'),
      content: t('judge.confirmContent', { total: formatPoints(total) }),
      okText: t('judge.confirmOk'),
      cancelText: t('judge.confirmCancel'),
      onOk: () => sender.submit(values),
    });
  };

  return (
    <form
      className="live-judge__form"
      data-testid="score-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {criteria.map((c) => {
        const { name, description } = text(c);
        const id = `live-${c.key}`;
        return (
          <div key={c.key} className="live-judge__criterion">
            <label htmlFor={id} className="live-judge__criterion-name">
              {name} <span className="live-judge__max">/ {c.max}</span>
            </label>
            {description && <p className="live-judge__criterion-desc">{description}</p>}
            <PointsStepper
              id={id}
              name={name}
              max={c.max}
              value={scores[c.key]}
              disabled={!enabled}
              onChange={(v) => {
                const next = { ...scores };
                if (v === undefined) delete next[c.key];
                else next[c.key] = v;
                change({ scores: next, comment });
              }}
            />
          </div>
        );
      })}
      {errors.scores && (
        <Alert type="error" showIcon title={errors.scores} role="alert" data-testid="scores-error" className="live-judge__error" />
      )}
      <div className="live-judge__total" data-testid="form-total">
        <span>{t('judge.total')}</span>
        <strong>{t('judge.totalValue', { total: formatPoints(total), max: maxOf(criteria) })}</strong>
      </div>
      <label htmlFor="live-comment" className="live-judge__criterion-name">
        {t('judge.comment')}
      </label>
      <Input.TextArea
        id="live-comment"
        className="live-judge__comment"
        value={comment}
        maxLength={COMMENT_MAX}
        showCount
        autoSize={{ minRows: 3, maxRows: 8 }}
        placeholder={t('judge.commentPlaceholder')}
        disabled={!enabled}
        status={errors.comment ? 'error' : undefined}
        aria-invalid={errors.comment ? true : undefined}
        onChange={(e) => change({ scores, comment: e.target.value })}
      />
      {errors.comment && (
        <Typography.Text type="danger" role="alert" data-testid="comment-error">
          {errors.comment}
        </Typography.Text>
      )}
      <Button type="primary" htmlType="submit" block size="large" className="live-judge__submit" disabled={!enabled} data-testid="submit-score">
        {t('judge.submit')}
      </Button>
    </form>
  );
}

/** What the judge may do with the project on stage; keyed by project so each starts afresh. */
function ProjectSheet({ sessionId, current, criteria, connected, onState }: {
  sessionId: string;
  current: Current;
  criteria: Criterion[];
  connected: boolean;
  onState(state: LiveJudgeState): void;
}) {
  const { t } = useTranslation('live');
  const { message } = useFeedback();
  const own: LiveOwnSheet | null = current.own;
  const sender = useScoreSender(
    sessionId,
    current.projectId,
    {
      onDone: (state) => {
        onState(state);
        void message.success(t('judge.sent'));
      },
      onRefused: () => {},
    },
    connected,
    own?.status === 'SUBMITTED',
  );

  // A submitted sheet with nothing on its way: a local draft is stale.
  const submitted = own?.status === 'SUBMITTED';
  useEffect(() => {
    if (submitted && !sender.outgoing) clearStoredScore(sessionId, current.projectId);
  }, [submitted, sender.outgoing, sessionId, current.projectId]);

  if (current.conflict) return <Alert type="warning" showIcon title={t('judge.conflict')} data-testid="judge-conflict" />;
  if (!current.judging) return <Alert type="info" showIcon title={t('judge.notJudging')} data-testid="judge-not-judging" />;

  if (sender.outgoing) {
    return (
      <div data-testid="outgoing">
        <Alert
          type={sender.status === 'pending' ? 'warning' : 'info'}
          showIcon
          role="status"
          title={sender.status === 'pending' ? t('judge.pending') : t('judge.sending')}
          description={t('judge.draftKept')}
          data-testid="send-status"
          data-status={sender.status}
          action={
            sender.status === 'pending' ? (
              <Button size="large" onClick={sender.retryNow} data-testid="retry-now">
                {t('judge.retryNow')}
              </Button>
            ) : undefined
          }
        />
        <SheetView criteria={criteria} scores={sender.outgoing.scores} comment={sender.outgoing.comment} />
      </div>
    );
  }

  if (submitted) {
    return (
      <div data-testid="locked">
        <div className="live-judge__status">
          <Tag color="success">{t('judge.submitted')}</Tag>
          <Typography.Text type="secondary">{t('judge.submittedAt', { time: formatDateTimeLabel(own.submittedAt) ?? '--' })}</Typography.Text>
        </div>
        <Alert type="success" showIcon title={t('judge.locked')} className="live-judge__locked" />
        <SheetView criteria={criteria} scores={own.scores} comment={own.comment} />
      </div>
    );
  }

  const hint = current.canScore ? null : current.state === 'WAITING' ? t('judge.notOpen') : t('judge.closed');
  return (
    <div>
      {own?.status === 'RETURNED' && (
        <Alert
          type="error"
          showIcon
          className="live-judge__returned"
          title={t('judge.returned')}
          description={own.returnReason ? t('judge.returnReason', { reason: own.returnReason }) : undefined}
          data-testid="returned"
        />
      )}
      {sender.refusal && (
        <Alert type="error" showIcon role="alert" title={t('judge.refused', { message: sender.refusal.message })} data-testid="refused" className="live-judge__error" />
      )}
      {hint && <Alert type="info" showIcon title={hint} data-testid="scoring-closed" className="live-judge__error" />}
      <ScoreForm criteria={criteria} initial={() => initialValues(sessionId, current.projectId, own)} enabled={current.canScore} sender={sender} />
    </div>
  );
}

function StageTimer({ timer }: { timer: Current['timer'] }) {
  const { t } = useTranslation('live');
  const view = useLiveTimer(timer);
  if (!view) return null;
  return (
    <div className={`live-judge__timer${view.overtime ? ' live-judge__timer--over' : ''}`} data-testid="judge-timer">
      <span>{t('judge.timer', { phase: t(`phase.${view.phase}`) })}</span>
      <strong>{formatClock(view.remaining)}</strong>
      {!view.running && <Tag>{t('judge.paused')}</Tag>}
      {view.overtime && <Tag color="error">{t('judge.overtime')}</Tag>}
    </div>
  );
}

/**
 * /expert/live/:id: the judge's phone during a session (docs/live-final.md, "Judges"). The
 * project on stage (the final is not blind: name, team, organisation), the final rubric in
 * 0.5 steps, the comment, submit; only the judge's own sheet is ever shown (sealing). Fed by
 * the judge's event stream; the expert watermark comes with the console layout.
 */
export function LiveJudgePage() {
  const { t } = useTranslation('live');
  const { id = '' } = useParams();
  const agreementLost = useAgreementLost();
  const stream = useLiveStream<LiveJudgeState>(id ? judgeEventsPath(id) : null, {
    realm: 'EXPERT',
    fetchState: () => fetchJudgeState(id),
    isOlder: (next, prev) => next.serverTime < prev.serverTime,
  });
  const { state, error, gone } = stream;

  useEffect(() => {
    if (error?.status === 403 && error.reason === 'AGREEMENT_REQUIRED') agreementLost();
  }, [error, agreementLost]);

  const back = (
    <Link to={EXPERT_PATHS.live} className="live-judge__back">
      {t('judge.back')}
    </Link>
  );

  // One h1 in every state (the page's heading): the session's name once known.
  const heading = (title: string) => (
    <Typography.Title level={1} className="live-judge__session">
      {title}
    </Typography.Title>
  );
  if (gone || error || !state) {
    let body;
    if (gone || error?.status === 404) {
      const text = gone ? t(`gone.${gone.reason}`, { defaultValue: gone.message }) : t('gone.DELETED');
      body = <Result status="warning" title={text} extra={back} data-testid="judge-gone" />;
    } else if (error) body = <Result status="warning" title={error.message || t('gone.DELETED')} extra={back} />;
    else body = <Skeleton active paragraph={{ rows: 8 }} data-testid="judge-loading" />;
    return (
      <div className="live-judge" data-testid="live-judge">
        {heading(t('titles.judge'))}
        {body}
      </div>
    );
  }

  const { session, current } = state;
  let body;
  if (!current) {
    const text = session.status === 'ENDED' ? t('judge.ended') : session.status === 'PLANNED' ? t('judge.notStarted') : t('judge.waiting');
    body = <Result status="info" title={text} data-testid="judge-waiting" />;
  } else {
    body = (
      <>
        <section className="live-judge__project" aria-labelledby="live-project-name" data-testid="judge-project">
          <div className="live-judge__project-head">
            <span className="live-judge__order">{t('judge.order', { order: current.order })}</span>
            <Tag color={current.state === 'SCORING' ? 'processing' : 'default'} data-testid="project-state">
              {t(`state.${current.state}`)}
            </Tag>
          </div>
          <h2 id="live-project-name" className="live-judge__project-name">
            {current.projectName}
          </h2>
          <dl className="live-judge__team">
            <div>
              <dt>{t('judge.team')}</dt>
              <dd>{current.teamName}</dd>
            </div>
            <div>
              <dt>{t('judge.org')}</dt>
              <dd>{current.orgName}</dd>
            </div>
          </dl>
          <StageTimer timer={current.timer} />
        </section>
        <ProjectSheet
          key={`${current.projectId}:${current.own?.status ?? 'NONE'}`}
          sessionId={session.id}
          current={current}
          criteria={state.criteria}
          connected={stream.connected}
          onState={stream.setState}
        />
      </>
    );
  }

  return (
    <div className="live-judge" data-testid="live-judge">
      <header className="live-judge__head">
        {heading(session.name)}
        {/* Typography's status colours meet the contrast rules in both themes (app/theme-contrast.ts). */}
        <Typography.Text
          type={stream.connected ? 'success' : 'danger'}
          strong={!stream.connected}
          className="live-judge__conn"
          role="status"
          data-testid="judge-connection"
        >
          {stream.connected ? t('stream.connected') : t('stream.reconnecting')}
        </Typography.Text>
      </header>
      {body}
    </div>
  );
}
