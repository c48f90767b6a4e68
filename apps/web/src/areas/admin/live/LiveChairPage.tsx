import { useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Dropdown, Result, Spin, Typography } from 'antd';
import { ArrowLeftOutlined, DownOutlined } from '@ant-design/icons';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  LIVE_SESSION_ACTIONS,
  isLiveSealed,
  type LiveActionBody,
  type LiveChairAction,
  type LiveChairProject,
  type LiveChairState,
} from '@contest/shared';
import { useFeedback } from '../../../components/feedback';
import { usePermission } from '../../../lib/permission';
import { formatClock, useLiveTimer } from '../../../lib/live-timer';
import { ChairReasonDialog, type ReasonTarget } from './ChairReasonDialog';
import { postAction } from './live-api';
import { isStale, liveErrorText } from './live-errors';
import { livePaths } from './LiveSessionsPage';
import { ProgressTag, ProjectStateTag, SessionStatusTag } from './LiveStatusTag';
import { useChairFeed } from './use-chair-feed';
import './live.css';

/** Actions asked about first: they cannot be taken back (REVEAL, END) or lock the judges (OPEN). */
const CONFIRMED: readonly LiveChairAction[] = ['OPEN', 'END', 'REVEAL'];
/** Actions that need a reason (and for RETURN_SCORE a judge): a dialog. */
const WITH_REASON: readonly LiveChairAction[] = ['CLOSE', 'RETURN_SCORE', 'REOPEN'];
const DANGER: readonly LiveChairAction[] = ['END', 'CLOSE', 'ABSENT'];
/** The main action of a state, shown as the primary button. */
const PRIMARY: readonly LiveChairAction[] = ['OPEN', 'NEXT', 'START', 'QA', 'SCORE', 'REVEAL'];

const isSessionAction = (action: LiveChairAction) => (LIVE_SESSION_ACTIONS as readonly string[]).includes(action);

/**
 * 主持现场答辩 (docs/live-final.md, "The chair"): the session's live state, the project on stage
 * with its timer, a button for every action the server allows now, each sent with the version
 * shown; the judges' progress (totals only once unsealed); all projects and the revealed ranking.
 * A STALE refusal (another chair was faster) shows its message and the page reloads the state.
 */
export function LiveChairPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('liveAdmin');
  const can = usePermission();
  const allowed = can({ codes: ['live:chair'] });
  const feed = useChairFeed(id, allowed);

  if (!allowed) return <Result status="403" title={<h1 className="admin-result-title">{t('chair.noPermission')}</h1>} />;
  if (feed.loading) return <Spin className="live-loading" />;
  if (!feed.state) return <Result status="warning" title={<h1 className="admin-result-title">{liveErrorText(feed.error) ?? t('msg.sessionNotFound')}</h1>} />;
  return <ChairConsole id={id} state={feed.state} connected={feed.connected} goneMessage={feed.gone?.message ?? null} feed={feed} />;
}

interface ConsoleProps {
  id: string;
  state: LiveChairState;
  connected: boolean;
  goneMessage: string | null;
  feed: ReturnType<typeof useChairFeed>;
}

function ChairConsole({ id, state, connected, goneMessage, feed }: ConsoleProps) {
  const { t } = useTranslation('liveAdmin');
  const { t: ta } = useTranslation('admin');
  const { message, modal } = useFeedback();
  const [pending, setPending] = useState<string | null>(null);
  const [reasonTarget, setReasonTarget] = useState<ReasonTarget | null>(null);
  const { session, current } = state;

  /** Sends one action with the version on screen; the answer is the new state. Rejects with the refusal. */
  const send = async (body: Omit<LiveActionBody, 'version'>) => {
    const key = `${body.action}:${body.projectId ?? ''}`;
    setPending(key);
    try {
      feed.replace(await postAction(id, { ...body, version: session.version }));
    } finally {
      setPending(null);
    }
  };

  /** A refusal outside a dialog: STALE says so and reloads; any other says why (and reloads too: the state may have moved). */
  const report = (error: unknown): string | null => {
    const text = liveErrorText(error);
    if (isStale(error)) {
      void message.warning({ content: text ?? t('chair.stale'), key: 'live-stale' });
      feed.refresh();
      return null;
    }
    feed.refresh();
    return text;
  };

  const act = (action: LiveChairAction, project?: LiveChairProject, expertId?: string) => {
    if (WITH_REASON.includes(action)) {
      if (action === 'REOPEN') setReasonTarget({ action });
      else if (project && action === 'CLOSE') setReasonTarget({ action, project });
      else if (project) setReasonTarget({ action: 'RETURN_SCORE', project, expertId });
      return;
    }
    const body = { action, ...(project ? { projectId: project.projectId } : {}) };
    const go = () =>
      send(body).catch((e: unknown) => {
        const text = report(e);
        if (text) void message.error(text);
      });
    if (!CONFIRMED.includes(action)) return void go();
    modal.confirm({
      title: t('chair.confirmTitle'),
      content: t(`chair.confirm${action as 'OPEN' | 'END' | 'REVEAL'}`, { name: project?.projectName ?? session.name }),
      okText: t(`action.${action}`),
      cancelText: ta('kit.cancel'),
      okButtonProps: { danger: action === 'END' },
      onOk: go,
    });
  };

  const button = (action: LiveChairAction, project?: LiveChairProject, large = true) => (
    <Button
      key={action}
      size={large ? 'large' : 'middle'}
      type={PRIMARY.includes(action) ? 'primary' : 'default'}
      danger={DANGER.includes(action)}
      loading={pending === `${action}:${project?.projectId ?? ''}`}
      disabled={pending !== null}
      onClick={() => act(action, project)}
      className="live-action"
      data-testid={`live-action-${action}`}
    >
      {t(`action.${action}`)}
    </Button>
  );

  /**
   * A listed project's actions in one line at any width: the main one as a button, the others
   * (absent, skip, return, ...) in a 更多 menu, a button that opens with Enter and arrows.
   */
  const rowActions = (project: LiveChairProject) => {
    if (project.actions.length === 0) return null;
    const [first, ...rest] = [...project.actions].sort((a, b) => Number(PRIMARY.includes(b)) - Number(PRIMARY.includes(a)));
    return (
      <div className="live-actions live-actions--row" role="group" aria-label={t('chair.projectActions')}>
        {button(first!, project, false)}
        {rest.length > 0 && (
          <Dropdown
            trigger={['click']}
            disabled={pending !== null}
            menu={{
              items: rest.map((action) => ({ key: action, label: t(`action.${action}`), danger: DANGER.includes(action) })),
              onClick: ({ key }) => act(key as LiveChairAction, project),
            }}
          >
            <Button className="live-action" aria-label={t('chair.moreFor', { name: project.projectName })} data-testid="live-row-more">
              {t('chair.more')} <DownOutlined />
            </Button>
          </Dropdown>
        )}
      </div>
    );
  };

  const sessionActions = state.actions.filter(isSessionAction);
  const others = state.projects.filter((p) => p.projectId !== current?.projectId);

  return (
    <section className="admin-page live-chair" data-testid="live-chair-page">
      <header className="live-head">
        <div>
          <Link to={livePaths.session(id)} className="live-back">
            <ArrowLeftOutlined /> {ta('titles.liveSession')}
          </Link>
          <h1 className="admin-page__title live-head__title">
            <span>
              {t('chair.title', { name: '' })}
              <span data-user-content>{session.name}</span>
            </span>
            <SessionStatusTag status={session.status} />
          </h1>
          <p className="live-head__meta">
            <span data-user-content>{session.venue}</span> · {session.date} · {t('fields.minutes', { presentation: session.presentationMinutes, qa: session.qaMinutes })} ·{' '}
            {t('chair.displays', { count: state.displays })} · <span data-testid="live-version">{t('chair.version', { version: session.version })}</span>
          </p>
        </div>
        <div className="live-head__side">
          <Badge status={connected ? 'processing' : 'warning'} text={connected ? t('chair.live') : t('chair.offline')} data-testid="live-connection" />
        </div>
      </header>

      {goneMessage && <Alert type="error" showIcon title={goneMessage} className="live-gone" />}

      {sessionActions.length > 0 && (
        <div className="live-actions live-actions--session" role="group" aria-label={t('chair.sessionActions')} data-testid="live-session-actions">
          {sessionActions.map((action) => button(action))}
        </div>
      )}

      <div className="live-chair__grid">
        <section className="live-card live-stage" aria-labelledby="live-stage-title" data-testid="live-stage">
          <h2 id="live-stage-title" className="live-card__title">
            {t('chair.current')}
          </h2>
          {current ? (
            <StageProject project={current} actions={current.actions.map((action) => button(action, current))} onReturn={(expertId) => act('RETURN_SCORE', current, expertId)} busy={pending !== null} />
          ) : (
            <Typography.Text type="secondary">{t('chair.noCurrent')}</Typography.Text>
          )}
        </section>

        <section className="live-card live-ranking" aria-labelledby="live-ranking-title">
          <h2 id="live-ranking-title" className="live-card__title">
            {t('chair.ranking')}
          </h2>
          {state.ranking.length === 0 ? (
            <Typography.Text type="secondary">{t('chair.noRanking')}</Typography.Text>
          ) : (
            <table className="live-table">
              <thead>
                <tr>
                  <th scope="col">{t('chair.rankCol')}</th>
                  <th scope="col">{t('plan.project')}</th>
                  <th scope="col">{t('chair.scoreCol')}</th>
                </tr>
              </thead>
              <tbody>
                {state.ranking.map((r) => (
                  <tr key={r.projectId}>
                    <td>{r.rank}</td>
                    <td>
                      <span data-user-content>{r.projectName}</span>
                      <div className="live-muted" data-user-content>{r.teamName}</div>
                    </td>
                    <td>{r.score ?? '--'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>

      <section className="live-card" aria-labelledby="live-projects-title" data-testid="live-chair-projects">
        <h2 id="live-projects-title" className="live-card__title">
          {t('chair.projects')}
        </h2>
        <div className="live-order__scroll">
          <table className="live-table live-table--projects">
            <thead>
              <tr>
                <th scope="col">{t('plan.order')}</th>
                <th scope="col">{t('plan.project')}</th>
                <th scope="col">{t('plan.state')}</th>
                <th scope="col">{t('chair.progressTitle')}</th>
                <th scope="col">{t('chair.result')}</th>
                <th scope="col">{t('chair.actionsCol')}</th>
              </tr>
            </thead>
            <tbody>
              {[...(current ? [current] : []), ...others]
                .sort((a, b) => a.order - b.order)
                .map((p) => (
                  <tr key={p.projectId} className={p.projectId === current?.projectId ? 'live-table__current' : undefined} data-testid="live-chair-project">
                    <td>{p.order}</td>
                    <td className="live-table__project">
                      <span data-user-content>{p.projectName}</span>
                      <div className="live-muted">
                        <span data-user-content>{p.teamName} · {p.orgName}</span>
                      </div>
                    </td>
                    <td className="live-table__nowrap">
                      <ProjectStateTag state={p.state} />
                    </td>
                    {/* Just the numbers: the column says what they count (a narrow table stays on one line). */}
                    <td className="live-table__nowrap">{t('chair.progressCount', { submitted: p.submitted, expected: p.expected })}</td>
                    <td className="live-table__nowrap">{p.result?.score ?? '--'}</td>
                    <td className="live-table__actions">{p.projectId === current?.projectId ? null : rowActions(p)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </section>

      <ChairReasonDialog
        target={reasonTarget}
        onClose={() => setReasonTarget(null)}
        onSubmit={({ reason, expertId }) => {
          if (!reasonTarget) return Promise.resolve();
          return send({
            action: reasonTarget.action,
            reason,
            ...(reasonTarget.action !== 'REOPEN' ? { projectId: reasonTarget.project.projectId } : {}),
            ...(expertId ? { expertId } : {}),
          });
        }}
        refusal={(e) => {
          const text = report(e);
          if (text === null) setReasonTarget(null);
          return text;
        }}
      />
    </section>
  );
}

/** The project on stage: facts, timer, progress, result, its buttons and the judges. */
function StageProject({
  project,
  actions,
  onReturn,
  busy,
}: {
  project: LiveChairProject;
  actions: ReactNode[];
  onReturn(expertId: string): void;
  busy: boolean;
}) {
  const { t } = useTranslation('liveAdmin');
  const timer = useLiveTimer(project.timer);
  const canReturn = project.actions.includes('RETURN_SCORE');
  const sealed = isLiveSealed(project.state);

  return (
    <div className="live-stage__body">
      <div className="live-stage__project">
        <div className="live-muted">{t('chair.order', { order: project.order })}</div>
        <div className="live-stage__name" data-testid="live-stage-name">
          <span data-user-content>{project.projectName}</span>
        </div>
        <div className="live-muted">
          <span data-user-content>{project.teamName} · {project.orgName}</span>
        </div>
        <div className="live-stage__state">
          <ProjectStateTag state={project.state} />
          <span data-testid="live-stage-progress">{t('chair.progress', { submitted: project.submitted, expected: project.expected })}</span>
        </div>
      </div>

      <div className={`live-timer${timer?.overtime ? ' live-timer--over' : ''}${timer && !timer.running ? ' live-timer--paused' : ''}`} data-testid="live-timer">
        {timer ? (
          <>
            <div className="live-timer__phase">
              {t(`chair.phase.${timer.phase}`)} · {timer.overtime ? t('chair.overtime') : t('chair.remaining')}
            </div>
            <div className="live-timer__clock" role="timer" aria-live="off">
              {formatClock(timer.remaining)}
            </div>
            <div className="live-timer__run">{timer.running ? t('chair.running') : t('chair.paused')}</div>
          </>
        ) : (
          <div className="live-timer__phase">{t('chair.noTimer')}</div>
        )}
      </div>

      {project.result && (
        <div className="live-stage__result" data-testid="live-stage-result">
          {t('chair.result')}
          {t('plan.colon')}
          <strong>{project.result.score ?? '--'}</strong>
          {project.result.rank !== null && <span> · {t('chair.rank', { rank: project.result.rank })}</span>}
        </div>
      )}
      {project.closeReason && <Alert type="info" showIcon title={t('chair.closeReason', { reason: project.closeReason })} />}

      {actions.length > 0 && (
        <div className="live-actions" role="group" aria-label={t('chair.projectActions')} data-testid="live-project-actions">
          {actions}
        </div>
      )}

      <h3 className="live-card__subtitle">{t('chair.judges')}</h3>
      <div className="live-order__scroll">
        <table className="live-table live-table--judges" data-testid="live-judges-table">
          <thead>
            <tr>
              <th scope="col">{t('chair.judge')}</th>
              <th scope="col">{t('chair.progressCol')}</th>
              <th scope="col">{t('chair.total')}</th>
              {canReturn && <th scope="col">{t('chair.actionsCol')}</th>}
            </tr>
          </thead>
          <tbody>
            {project.judges.map((j) => (
              <tr key={j.expertId} data-testid="live-judge-row">
                <td>
                  {j.code} {j.name}
                </td>
                <td>
                  <ProgressTag status={j.status} />
                </td>
                <td>{j.total ?? (sealed ? <span className="live-muted">{t('chair.sealed')}</span> : '--')}</td>
                {canReturn && (
                  <td>
                    {j.status === 'SUBMITTED' && (
                      <Button size="middle" disabled={busy} onClick={() => onReturn(j.expertId)} aria-label={t('chair.returnFor', { name: `${j.code} ${j.name}` })}>
                        {t('action.RETURN_SCORE')}
                      </Button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {project.excluded.length > 0 && (
        <p className="live-muted">
          {t('plan.excluded')}
          {t('plan.colon')}
          {project.excluded.map((e) => t('chair.excludedItem', { judge: `${e.code} ${e.name}`, why: t(`plan.why.${e.why}`) })).join(t('chair.listSep'))}
        </p>
      )}
    </div>
  );
}
