import { Button, Spin, Tag } from 'antd';
import { Link, Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import type { PhaseKey } from '@contest/shared';
import { useParticipantAccount } from '../../../components/AccountMenu';
import { useOpenAuthModal } from '../../../lib/auth-modal';
import { saveRedirectPath, useUserInfo, type ParticipantInfo } from '../../../lib/session';
import { SITE_PATHS } from '../routes';
import { PHASE_STATE_COLORS, windowText } from '../site-format';
import { useContestPublic } from '../site-api';

export interface EntryGateProps {
  /** This page, remembered so the login dialog brings the user back to be sent on. */
  path: string;
  title: string;
  intro: string;
  steps: readonly ParseKeys<'site'>[];
  phase: PhaseKey;
  /** Where a signed-in participant goes, from their statuses. */
  targetOf(info: ParticipantInfo): string;
}

/**
 * /sign-up and /materials-submit: entry points from the public navigation. Signed in, the
 * participant is sent on at once to the page their status allows (docs/rules/team.md and materials.md, "Status machine"); signed out,
 * the page says what the step involves and offers login and registration.
 */
export function EntryGate({ path, title, intro, steps, phase, targetOf }: EntryGateProps) {
  const { t } = useTranslation('site');
  const account = useParticipantAccount();
  const info = useUserInfo().data;
  const openAuth = useOpenAuthModal();
  const contest = useContestPublic().data;
  const current = Array.isArray(contest?.phases) ? contest.phases.find((p) => p.key === phase) : undefined;

  if (account.status === 'signedIn' && info) return <Navigate replace to={targetOf(info)} />;
  if (account.status === 'loading') {
    return (
      <section className="site-page entry-page">
        <h1 className="site-page__title">{title}</h1>
        <div className="entry-page__loading">
          <Spin />
        </div>
      </section>
    );
  }

  const open = (type: 'login' | 'register') => {
    saveRedirectPath(path);
    openAuth(type);
  };

  return (
    <section className="site-page entry-page" data-testid="entry-page">
      <h1 className="site-page__title">{title}</h1>
      <div className="site-panel entry-page__panel">
        <p className="entry-page__intro">{intro}</p>
        {current && (
          <p className="entry-page__phase" data-testid="entry-phase">
            <span>{t('entry.window', { phase: t(`home.schedule.${phase}.title`) })}</span>
            <span>{windowText(current.window, t('home.schedule.openEnded')) ?? t('home.schedule.tbd')}</span>
            <Tag color={PHASE_STATE_COLORS[current.state]}>{t(`home.schedule.state.${current.state}`)}</Tag>
          </p>
        )}
        <ol className="entry-page__steps">
          {steps.map((step) => (
            <li key={step}>{t(step)}</li>
          ))}
        </ol>
        <p className="entry-page__login-hint">{t('entry.loginHint')}</p>
        <div className="entry-page__actions">
          <Button type="primary" size="large" onClick={() => open('login')}>
            {t('entry.login')}
          </Button>
          <Button size="large" onClick={() => open('register')}>
            {t('entry.register')}
          </Button>
          <Link to={SITE_PATHS.signGuide} className="entry-page__guide">
            {t('home.guide')}
          </Link>
        </div>
      </div>
    </section>
  );
}
