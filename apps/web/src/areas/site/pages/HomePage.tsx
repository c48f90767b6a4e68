import { useEffect, useState, type ReactNode } from 'react';
import { PlainButton } from '../../../components/plain-button/PlainButton';
import {
  AuditOutlined,
  CloudUploadOutlined,
  FileSearchOutlined,
  FormOutlined,
  GlobalOutlined,
  NodeIndexOutlined,
  RightOutlined,
  TrophyOutlined,
} from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import {
  PHASE_KEYS,
  type ContestPhase,
  type ContestPublic,
  type NewsCategory,
  type PhaseKey,
  type PhaseState,
  type SiteBlock,
} from '@contest/shared';
import logoUrl from '../../../assets/logo.svg';
import { RichHtml } from '../../../components/rich-text/RichHtml';
import { SITE_PATHS, detailPath } from '../routes';
import { PHASE_STATE_COLORS, windowText } from '../site-format';
import { useContestPublic, useNewsPage, useSiteBlocks, useTrackNames } from '../site-api';
import '../site-pages.css';
import './home-page.css';

type SiteKey = ParseKeys<'site'>;

type DataParts = typeof import('./home-data-parts');
let dataParts: DataParts | undefined;
let dataPartsLoad: Promise<DataParts> | undefined;

/**
 * Tags and the empty list show only after the server answers; their antd code is fetched once the
 * page has mounted. Until it is there the answer waits behind the view it replaces (the
 * unscheduled schedule, the news skeleton), so no half-drawn state shows.
 */
function useDataParts(): DataParts | undefined {
  const [parts, setParts] = useState(dataParts);
  useEffect(() => {
    if (parts) return;
    let live = true;
    dataPartsLoad ??= import('./home-data-parts').then(
      (loaded) => (dataParts = loaded),
      (err: unknown) => {
        // Tried again by the next mount.
        dataPartsLoad = undefined;
        throw err;
      },
    );
    dataPartsLoad.then(
      (loaded) => live && setParts(loaded),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [parts]);
  return parts;
}

const HIGHLIGHTS: { icon: ReactNode; title: SiteKey; body: SiteKey }[] = [
  { icon: <GlobalOutlined />, title: 'home.intro.open.title', body: 'home.intro.open.body' },
  { icon: <NodeIndexOutlined />, title: 'home.intro.data.title', body: 'home.intro.data.body' },
  { icon: <AuditOutlined />, title: 'home.intro.review.title', body: 'home.intro.review.body' },
];

const PHASE_ICONS: Record<PhaseKey, ReactNode> = {
  signUp: <FormOutlined />,
  prelimSubmission: <CloudUploadOutlined />,
  prelimReview: <FileSearchOutlined />,
  finalReview: <TrophyOutlined />,
};

/** The four phases in contest order, unscheduled until the server answers. */
const NO_PHASES: ContestPhase[] = PHASE_KEYS.map((key) => ({ key, name: key, window: null, state: 'UNSCHEDULED' }));

const HOME_BLOCKS = ['home-intro', 'home-tracks', 'home-schedule', 'home-organisers', 'home-contact'] as const;

const LATEST_SIZE = 5;

const ORGANISERS: { role: SiteKey; name: SiteKey }[] = [
  { role: 'home.organisers.host', name: 'home.organisers.hostName' },
  { role: 'home.organisers.organiser', name: 'home.organisers.tbd' },
  { role: 'home.organisers.supporter', name: 'home.organisers.tbd' },
];

function nonEmpty(block: SiteBlock | undefined): SiteBlock | null {
  return block && typeof block.body === 'string' && block.body.trim() ? block : null;
}

/** Chinese text: a block with no English version answers in Chinese (docs/decisions.md, "English"). */
const HAN = /[\u3400-\u9fff]/;

/** The tracks of the TRACK dictionary in English: English pages when the tracks block has no English text. */
function TrackNames() {
  const names = useTrackNames();
  return names.length ? (
    <ul className="home-block" data-testid="home-track-names">
      {names.map((name) => (
        <li key={name}>{name}</li>
      ))}
    </ul>
  ) : null;
}

/** The answer when it has the expected shape; the page falls back to its built-in texts otherwise. */
function validContest(contest: ContestPublic | undefined): ContestPublic | undefined {
  return contest && Array.isArray(contest.phases) ? contest : undefined;
}

function Schedule({ contest: answer }: { contest: ContestPublic | undefined }) {
  const { t } = useTranslation('site');
  const parts = useDataParts();
  const contest = parts && answer;
  const phases = contest?.phases ?? NO_PHASES;
  return (
    <ol className="home-grid home-grid--4 home-schedule" data-testid="home-schedule">
      {phases.map((phase, index) => {
        const current = contest?.currentPhase === phase.key;
        return (
          <li
            key={phase.key}
            className={current ? 'home-card home-phase is-current' : 'home-card home-phase'}
            aria-current={current ? 'step' : undefined}
            data-testid={`phase-${phase.key}`}
            data-state={phase.state}
          >
            <span className="home-phase__step">{String(index + 1).padStart(2, '0')}</span>
            <span className="home-card__icon">{PHASE_ICONS[phase.key]}</span>
            <h3 className="home-card__title">{t(`home.schedule.${phase.key}.title`)}</h3>
            <p className="home-phase__date">
              {windowText(phase.window, t('home.schedule.openEnded')) ?? t('home.schedule.tbd')}
            </p>
            {contest && parts && (
              <parts.StateTag
                className="home-phase__state"
                color={current ? 'processing' : PHASE_STATE_COLORS[phase.state]}
                text={current ? t('home.schedule.current') : t(`home.schedule.state.${phase.state}`)}
              />
            )}
            <p className="home-card__body">{t(`home.schedule.${phase.key}.body`)}</p>
          </li>
        );
      })}
    </ol>
  );
}

const SKELETON_ROWS = [1, 2, 3, 4, 5];

function LatestNews({ category, title, more }: { category: NewsCategory; title: string; more: string }) {
  const { t } = useTranslation('site');
  const { data, isPending } = useNewsPage(category, 1, LATEST_SIZE);
  const parts = useDataParts();
  const list = Array.isArray(data?.list) ? data.list : [];
  return (
    <div className="home-news" data-testid={`home-news-${category}`}>
      <div className="home-news__head">
        <h3 className="home-news__title">{title}</h3>
        <Link to={more} className="home-news__more">
          {t('home.news.more')} <RightOutlined />
        </Link>
      </div>
      {isPending || !parts ? (
        // antd's Skeleton (5 rows, no title) drawn in CSS: its style code is no first-paint load.
        <div className="home-skeleton" data-testid="home-news-loading">
          <ul className="home-skeleton__rows">
            {SKELETON_ROWS.map((row) => (
              <li key={row} />
            ))}
          </ul>
        </div>
      ) : list.length === 0 ? (
        <parts.NewsEmpty description={t('news.empty')} />
      ) : (
        <ul className="home-news__list">
          {list.map((item) => (
            <li key={item.id} className="home-news__item">
              <Link to={detailPath(item.id)} className="home-news__link">
                {item.pinned && <parts.StateTag color="red" text={t('news.pinned')} />}
                <span className="home-news__name">{item.title}</span>
              </Link>
              <time className="home-news__date" dateTime={item.publishAt ?? undefined}>
                {item.date}
              </time>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function CallToAction({ contest }: { contest: ContestPublic | undefined }) {
  const { t } = useTranslation('site');
  const signUp = contest?.phases.find((p) => p.key === 'signUp');
  const state: PhaseState = signUp?.state ?? 'UNSCHEDULED';
  const text = windowText(signUp?.window ?? null, t('home.schedule.openEnded'));
  return (
    <section className="home-cta" data-testid="home-cta" data-state={state}>
      <div className="home-section__inner home-cta__inner">
        <div>
          <h2 className="home-cta__title">{t(`home.signUpCall.${state}`)}</h2>
          {text && <p className="home-cta__window">{t('home.signUpCall.window', { window: text })}</p>}
        </div>
        {/* Only while sign-up is open (or before the server answers): the title says why not otherwise. */}
        {(!signUp || state === 'OPEN') && (
          <div className="home-cta__actions">
            <Link to={SITE_PATHS.signUp}>
              <PlainButton type="primary" size="large" className="home-banner__cta">
                {t('home.signUpCall.action')}
              </PlainButton>
            </Link>
          </div>
        )}
      </div>
    </section>
  );
}

/** `YYYY-MM-DD HH:mm` in Beijing time; local, as the shared helper's module would pull zod into the home page. */
const beijingMinute = (iso: string): string | null => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : new Date(ms + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
};

/**
 * The banner's call: 立即报名 while sign-up is open (or before the server answers); otherwise
 * why not, and when it opens, instead of a button that leads to a form that cannot be sent.
 */
function BannerCall({ contest }: { contest: ContestPublic | undefined }) {
  const { t } = useTranslation('site');
  const signUp = contest?.phases.find((p) => p.key === 'signUp');
  if (!signUp || signUp.state === 'OPEN') {
    return (
      <Link to={SITE_PATHS.signUp}>
        <PlainButton type="primary" size="large" className="home-banner__cta">
          {t('home.cta')}
        </PlainButton>
      </Link>
    );
  }
  const start = signUp.window?.start ? beijingMinute(signUp.window.start) : null;
  const state = signUp.state === 'NOT_STARTED' && !start ? 'UNSCHEDULED' : signUp.state;
  return (
    <p className="home-banner__closed" role="status" data-testid="home-signup-closed" data-state={state}>
      {t(`home.ctaClosed.${state}`, { start })}
    </p>
  );
}

/**
 * The home page: banner, introduction, schedule from the phase windows (the open phase
 * highlighted), latest news of both categories, the sign-up call and the organisers. Blocks
 * edited in the console replace the built-in texts; without them (or offline) those stay.
 */
export function HomePage() {
  const { t, i18n } = useTranslation(['site', 'common']);
  const contest = validContest(useContestPublic().data);
  // Blocks are written in Chinese in the console: their titles head the sections in Chinese
  // only; other languages keep the built-in headings (the bodies show as written).
  const chinese = (i18n.resolvedLanguage ?? i18n.language).startsWith('zh');
  const heading = (fromBlock: string | undefined, key: 'home.intro.title' | 'home.tracks' | 'home.organisers.title') =>
    (chinese && fromBlock) || t(key);
  const blocks = useSiteBlocks(HOME_BLOCKS).data;
  const block = (key: (typeof HOME_BLOCKS)[number]) => nonEmpty(blocks?.[key]);
  // On English pages a block still in Chinese gives way to the built-in English text.
  const readable = (b: SiteBlock | null) => (b && (chinese || !HAN.test(b.title + b.body)) ? b : null);
  const intro = block('home-intro');
  const tracks = block('home-tracks');
  const scheduleNote = block('home-schedule');
  const organisers = block('home-organisers');
  const contact = block('home-contact');

  return (
    <div className="home">
      <section className="home-banner">
        <img className="home-banner__art" src={logoUrl} alt="" width={320} height={320} />
        <div className="home-banner__inner">
          <p className="home-banner__eyebrow">{t('home.eyebrow')}</p>
          <h1 className="home-banner__title" data-testid="home-title">
            {t('common:appName')}
          </h1>
          <p className="home-banner__subtitle">{t('home.subtitle')}</p>
          <div className="home-banner__actions">
            <BannerCall contest={contest} />
            <Link to={SITE_PATHS.signGuide}>
              <PlainButton size="large" ghost className="home-banner__secondary">
                {t('home.guide')}
              </PlainButton>
            </Link>
          </div>
        </div>
      </section>

      <section className="home-section" aria-labelledby="home-intro">
        <div className="home-section__inner">
          <h2 id="home-intro" className="home-section__title">
            {heading(intro?.title, 'home.intro.title')}
          </h2>
          {intro && chinese ? (
            <RichHtml html={intro.body} className="home-intro__body home-intro__body--rich" testId="home-intro-body" />
          ) : (
            <p className="home-intro__body">{t('home.intro.body')}</p>
          )}
          <div className="home-grid home-grid--3">
            {HIGHLIGHTS.map((item) => (
              <article key={item.title} className="home-card">
                <span className="home-card__icon">{item.icon}</span>
                <h3 className="home-card__title">{t(item.title)}</h3>
                <p className="home-card__body">{t(item.body)}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

      {tracks && (
        <section className="home-section home-section--tinted" aria-labelledby="home-tracks">
          <div className="home-section__inner">
            <h2 id="home-tracks" className="home-section__title">
              {heading(tracks.title, 'home.tracks')}
            </h2>
            {readable(tracks) ? <RichHtml html={tracks.body} className="home-block" /> : <TrackNames />}
          </div>
        </section>
      )}

      <section className="home-section home-section--tinted" aria-labelledby="home-schedule">
        <div className="home-section__inner">
          <h2 id="home-schedule" className="home-section__title">
            {t('home.schedule.title')}
          </h2>
          <Schedule contest={contest} />
          {readable(scheduleNote) ? (
            <RichHtml html={scheduleNote!.body} className="home-block home-block--note" />
          ) : (
            <p className="home-block home-block--note" data-testid="home-schedule-note">
              {t('home.schedule.note')}
            </p>
          )}
        </div>
      </section>

      <section className="home-section" aria-labelledby="home-news">
        <div className="home-section__inner">
          <h2 id="home-news" className="home-section__title">
            {t('home.news.title')}
          </h2>
          <div className="home-grid home-grid--2">
            <LatestNews category="CONTEST_DYNAMIC" title={t('titles.contestDynamic')} more={SITE_PATHS.contestDynamic} />
            <LatestNews
              category="MEDICAL_INSURANCE"
              title={t('titles.medicalInsurance')}
              more={SITE_PATHS.medicalInsurance}
            />
          </div>
        </div>
      </section>

      <CallToAction contest={contest} />

      <section className="home-section" aria-labelledby="home-organisers">
        <div className="home-section__inner">
          <h2 id="home-organisers" className="home-section__title">
            {heading(organisers?.title, 'home.organisers.title')}
          </h2>
          {readable(organisers) ? (
            <RichHtml html={organisers!.body} className="home-block" testId="home-organisers-body" />
          ) : (
            <dl className="home-organisers">
              {ORGANISERS.map((row) => (
                <div key={row.role} className="home-organisers__row">
                  <dt>{t(row.role)}</dt>
                  <dd>{t(row.name)}</dd>
                </div>
              ))}
            </dl>
          )}
          {readable(contact) && <RichHtml html={contact!.body} className="home-block home-block--note" />}
        </div>
      </section>
    </div>
  );
}
