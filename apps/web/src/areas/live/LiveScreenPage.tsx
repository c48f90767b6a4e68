import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import type { LiveDisplayState, LiveStageProject } from '@contest/shared';
import { useLiveStream } from '../../lib/live-stream';
import { formatClock, useLiveTimer } from '../../lib/live-timer';
import { displayEventsPath, fetchDisplayState } from './screen-api';
import './live-screen.css';

type Theme = 'dark' | 'light';
const THEME_KEY = 'liveScreenTheme';
const STAGE_W = 1920;
const STAGE_H = 1080;
/** The most ranking rows shown; fewer when long names take two lines (useRowsThatFit). */
const RANKING_ROWS = 10;

const parseTheme = (value: string | null): Theme | null => (value === 'dark' || value === 'light' ? value : null);

/** ?theme= wins, then the last choice on this machine, then dark (a projector in a dim hall). */
function useScreenTheme(): [Theme, () => void] {
  const [params] = useSearchParams();
  const fromQuery = parseTheme(params.get('theme'));
  const [theme, setTheme] = useState<Theme>(() => fromQuery ?? parseTheme(window.localStorage.getItem(THEME_KEY)) ?? 'dark');
  const toggle = () => {
    const next: Theme = theme === 'dark' ? 'light' : 'dark';
    setTheme(next);
    try {
      window.localStorage.setItem(THEME_KEY, next);
    } catch {
      // A locked-down kiosk: the toggle still works for this visit.
    }
  };
  return [theme, toggle];
}

/** The 1920x1080 stage scaled to the window (1280x720, a 4:3 projector): never a scroll bar. */
function useStageScale(): number {
  const [scale, setScale] = useState(1);
  useLayoutEffect(() => {
    const fit = () => setScale(Math.min(window.innerWidth / STAGE_W, window.innerHeight / STAGE_H) || 1);
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, []);
  return scale;
}

export const formatScore = (score: number | null) => (score === null ? '--' : score.toFixed(2));

function Timer({ project }: { project: LiveStageProject }) {
  const { t } = useTranslation('live');
  const view = useLiveTimer(project.timer);
  if (!view) return null;
  return (
    <div className={`screen-timer${view.overtime ? ' screen-timer--over' : ''}`} data-testid="screen-timer" data-overtime={view.overtime}>
      <div className="screen-timer__phase">
        {t(`phase.${view.phase}`)}
        {!view.running && <span className="screen-timer__paused">{t('judge.paused')}</span>}
        {view.overtime && <span className="screen-timer__paused">{t('judge.overtime')}</span>}
      </div>
      <div className="screen-timer__clock">{formatClock(view.remaining)}</div>
    </div>
  );
}

/** The big box under the project: timer, progress, or the revealed score. Never a judge's mark. */
function StageStatus({ project }: { project: LiveStageProject }) {
  const { t } = useTranslation('live');
  switch (project.state) {
    case 'PRESENTING':
    case 'QA':
      return <Timer project={project} />;
    case 'SCORING':
      return (
        <div className="screen-status" data-testid="screen-progress">
          <div className="screen-status__label">{t('screen.scoring')}</div>
          <div className="screen-status__value">{t('screen.submitted', { submitted: project.submitted, expected: project.expected })}</div>
        </div>
      );
    case 'CLOSED':
      return (
        <div className="screen-status" data-testid="screen-closed">
          <div className="screen-status__label screen-status__label--big">{t('screen.closed')}</div>
        </div>
      );
    case 'REVEALED':
      return (
        <div className="screen-status screen-status--score" data-testid="screen-result">
          <div className="screen-status__label">{t('screen.score')}</div>
          <div className="screen-status__score" data-testid="screen-score">
            {formatScore(project.result?.score ?? null)}
          </div>
          {project.result?.rank != null && <div className="screen-status__rank">{t('screen.rank', { rank: project.result.rank })}</div>}
        </div>
      );
    case 'ABSENT':
    case 'SKIPPED':
      return (
        <div className="screen-status">
          <div className="screen-status__label screen-status__label--big">{t(`state.${project.state}`)}</div>
        </div>
      );
    default:
      return (
        <div className="screen-status">
          <div className="screen-status__label screen-status__label--big">{t('screen.waitingStart')}</div>
        </div>
      );
  }
}

function Stage({ state }: { state: LiveDisplayState }) {
  const { t } = useTranslation('live');
  const { current, session } = state;
  if (!current) {
    const text = session.status === 'ENDED' ? t('screen.ended') : session.status === 'PLANNED' ? t('screen.noSession') : t('screen.waitingStart');
    return (
      <section className="screen-stage screen-stage--empty" data-testid="screen-stage">
        <div className="screen-stage__idle">{text}</div>
      </section>
    );
  }
  return (
    <section className="screen-stage" data-testid="screen-stage">
      <div className="screen-stage__head">
        <span className="screen-stage__order">{t('screen.order', { order: current.order })}</span>
        <span className={`screen-pill screen-pill--${current.state.toLowerCase()}`}>{t(`state.${current.state}`)}</span>
      </div>
      <h2 className="screen-stage__name" data-testid="screen-project">
        {current.projectName}
      </h2>
      <div className="screen-stage__team">
        <span>{current.teamName}</span>
        {current.orgName && <span className="screen-stage__org">{current.orgName}</span>}
      </div>
      <StageStatus project={current} />
    </section>
  );
}

/**
 * Hides the ranking rows below the panel's bottom edge: a row is shown whole or not at all (a
 * name on two lines makes its row taller, so how many fit depends on the names). The stage has a
 * fixed size, so measuring once per ranking is enough.
 */
function useRowsThatFit(box: RefObject<HTMLDivElement | null>, ranking: unknown) {
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const rows = [...el.querySelectorAll<HTMLTableRowElement>('tbody tr')];
    for (const row of rows) row.hidden = false;
    const limit = el.getBoundingClientRect().bottom;
    let full = true;
    for (const row of rows) {
      full = full && row.getBoundingClientRect().bottom <= limit + 0.5;
      row.hidden = !full;
    }
  }, [box, ranking]);
}

function Ranking({ state }: { state: LiveDisplayState }) {
  const { t } = useTranslation('live');
  const rows = state.ranking.slice(0, RANKING_ROWS);
  const box = useRef<HTMLDivElement>(null);
  useRowsThatFit(box, state.ranking);
  return (
    <section className="screen-ranking" aria-labelledby="screen-ranking-title" data-testid="screen-ranking">
      <h2 id="screen-ranking-title" className="screen-ranking__title">
        {t('screen.ranking')}
      </h2>
      {rows.length === 0 ? (
        <p className="screen-ranking__empty">{t('screen.rankingEmpty')}</p>
      ) : (
        <div className="screen-ranking__box" ref={box}>
          <table className="screen-ranking__table">
            <thead>
              <tr>
                <th scope="col">{t('screen.rankCol')}</th>
                <th scope="col">{t('screen.projectCol')}</th>
                <th scope="col" className="screen-ranking__num">
                  {t('screen.scoreCol')}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.projectId} className={row.projectId === state.current?.projectId ? 'screen-ranking__row--current' : undefined} data-testid="ranking-row">
                  <td className="screen-ranking__rank">{row.rank}</td>
                  <td>
                    <div className="screen-ranking__project">{row.projectName}</div>
                    <div className="screen-ranking__team">{row.teamName}</div>
                  </td>
                  <td className="screen-ranking__num">{formatScore(row.score)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="screen-ranking__rule">{t('screen.rule', { rule: t(`aggregates.${state.rule}`) })}</p>
    </section>
  );
}

function Revoked({ theme }: { theme: Theme }) {
  const { t } = useTranslation('live');
  return (
    <main className={`live-screen live-screen--${theme} live-screen--message`} data-testid="screen-revoked">
      <div className="screen-message" role="alert">
        <div className="screen-message__code" aria-hidden="true">
          404
        </div>
        <h1 className="screen-message__title">{t('screen.revoked')}</h1>
        <p className="screen-message__hint">{t('screen.revokedHint')}</p>
      </div>
    </main>
  );
}

/**
 * /live/:token: the projector's big screen (docs/live-final.md, "Big screen and display
 * links", "Sealing"): the session, the project on stage, its timer, while scoring only how many
 * judges have submitted, after the reveal the project's score by the round's rule and the
 * running ranking of revealed projects. Reads its stream with the token (no login); a revoked
 * link says so full screen and stops.
 */
export function LiveScreenPage() {
  const { t } = useTranslation('live');
  const { token = '' } = useParams();
  const [theme, toggleTheme] = useScreenTheme();
  const scale = useStageScale();
  const stream = useLiveStream<LiveDisplayState>(token ? displayEventsPath(token) : null, {
    realm: null,
    fetchState: () => fetchDisplayState(token),
    isOlder: (next, prev) => next.serverTime < prev.serverTime,
  });

  useEffect(() => {
    document.documentElement.classList.add('live-screen-root');
    return () => document.documentElement.classList.remove('live-screen-root');
  }, []);

  if (stream.gone || stream.error?.status === 404 || stream.error?.status === 410) return <Revoked theme={theme} />;

  const state = stream.state;
  const otherTheme: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <div className={`live-screen live-screen--${theme}`} data-testid="live-screen" data-theme={theme}>
      <main
        className="live-screen__stage"
        style={{ width: STAGE_W, height: STAGE_H, transform: `translate(-50%, -50%) scale(${scale})` }}
      >
        <div className="screen-head">
          <div className="screen-head__title">
            <h1 className="screen-head__session" data-testid="screen-session">
              {state?.session.name ?? t('titles.screen')}
            </h1>
            {state && <span className="screen-head__meta">{`${state.session.venue} · ${state.session.date}`}</span>}
          </div>
          <div className="screen-head__tools">
            {!stream.connected && state && (
              <span className="screen-head__down" role="status" data-testid="screen-reconnecting">
                {t('stream.reconnecting')}
              </span>
            )}
            <button
              type="button"
              className="screen-head__theme"
              onClick={toggleTheme}
              aria-label={t('screen.switchTheme', { theme: t(otherTheme === 'dark' ? 'screen.themeDark' : 'screen.themeLight') })}
              data-testid="screen-theme"
            >
              {theme === 'dark' ? '☀' : '☾'}
            </button>
          </div>
        </div>
        {state ? (
          <div className="screen-body">
            <div className="screen-body__main">
              <Stage state={state} />
              {state.next && (
                <div className="screen-next" data-testid="screen-next">
                  <span className="screen-next__label">{t('screen.next')}</span>
                  <span className="screen-next__name">{state.next.projectName}</span>
                  <span className="screen-next__team">{state.next.teamName}</span>
                </div>
              )}
            </div>
            <Ranking state={state} />
          </div>
        ) : (
          <div className="screen-body screen-body--loading">
            <div className="screen-stage__idle">{stream.connected ? '' : t('screen.loading')}</div>
          </div>
        )}
      </main>
    </div>
  );
}
