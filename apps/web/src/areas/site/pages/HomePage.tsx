import type { ReactNode } from 'react';
import { Button } from 'antd';
import {
  AuditOutlined,
  CloudUploadOutlined,
  FileSearchOutlined,
  FormOutlined,
  GlobalOutlined,
  NodeIndexOutlined,
  TrophyOutlined,
} from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import logoUrl from '../../../assets/logo.svg';
import { SITE_PATHS } from '../routes';
import './home-page.css';

type SiteKey = ParseKeys<'site'>;

const HIGHLIGHTS: { icon: ReactNode; title: SiteKey; body: SiteKey }[] = [
  { icon: <GlobalOutlined />, title: 'home.intro.open.title', body: 'home.intro.open.body' },
  { icon: <NodeIndexOutlined />, title: 'home.intro.data.title', body: 'home.intro.data.body' },
  { icon: <AuditOutlined />, title: 'home.intro.review.title', body: 'home.intro.review.body' },
];

// Dates are placeholders until the schedule is managed as site content.
const PHASES: { icon: ReactNode; title: SiteKey; body: SiteKey }[] = [
  {
    icon: <FormOutlined />,
    title: 'home.schedule.signUp.title',
    body: 'home.schedule.signUp.body',
  },
  {
    icon: <CloudUploadOutlined />,
    title: 'home.schedule.preliminarySubmit.title',
    body: 'home.schedule.preliminarySubmit.body',
  },
  {
    icon: <FileSearchOutlined />,
    title: 'home.schedule.preliminaryReview.title',
    body: 'home.schedule.preliminaryReview.body',
  },
  {
    icon: <TrophyOutlined />,
    title: 'home.schedule.finalReview.title',
    body: 'home.schedule.finalReview.body',
  },
];

const ORGANISERS: { role: SiteKey; name: SiteKey }[] = [
  { role: 'home.organisers.host', name: 'home.organisers.hostName' },
  { role: 'home.organisers.organiser', name: 'home.organisers.tbd' },
  { role: 'home.organisers.supporter', name: 'home.organisers.tbd' },
];

export function HomePage() {
  const { t } = useTranslation(['site', 'common']);
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
            <Link to={SITE_PATHS.signUp}>
              <Button type="primary" size="large" className="home-banner__cta">
                {t('home.cta')}
              </Button>
            </Link>
            <Link to={SITE_PATHS.signGuide}>
              <Button size="large" ghost className="home-banner__secondary">
                {t('home.guide')}
              </Button>
            </Link>
          </div>
        </div>
      </section>

      <section className="home-section" aria-labelledby="home-intro">
        <div className="home-section__inner">
          <h2 id="home-intro" className="home-section__title">
            {t('home.intro.title')}
          </h2>
          <p className="home-intro__body">{t('home.intro.body')}</p>
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

      <section className="home-section home-section--tinted" aria-labelledby="home-schedule">
        <div className="home-section__inner">
          <h2 id="home-schedule" className="home-section__title">
            {t('home.schedule.title')}
          </h2>
          <ol className="home-grid home-grid--4 home-schedule">
            {PHASES.map((phase, index) => (
              <li key={phase.title} className="home-card home-phase">
                <span className="home-phase__step">{String(index + 1).padStart(2, '0')}</span>
                <span className="home-card__icon">{phase.icon}</span>
                <h3 className="home-card__title">{t(phase.title)}</h3>
                <p className="home-phase__date">{t('home.schedule.tbd')}</p>
                <p className="home-card__body">{t(phase.body)}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="home-section" aria-labelledby="home-organisers">
        <div className="home-section__inner">
          <h2 id="home-organisers" className="home-section__title">
            {t('home.organisers.title')}
          </h2>
          <dl className="home-organisers">
            {ORGANISERS.map((row) => (
              <div key={row.role} className="home-organisers__row">
                <dt>{t(row.role)}</dt>
                <dd>{t(row.name)}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>
    </div>
  );
}
