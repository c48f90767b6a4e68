import { useTranslation } from 'react-i18next';
import { teamEditable } from '@contest/shared';
import type { ParticipantInfo } from '../../../lib/session';
import { EntryGate } from '../components/EntryGate';
import { SITE_PATHS } from '../routes';
import '../site-pages.css';

/** Participant paths (areas never import each other, so the two targets are spelled here). */
const MY_SIGN = '/my-sign';
const MY_SIGN_DETAIL = '/my-sign/detail';

/** docs/rules/team.md, "Status machine": the sign-up form only for no team, DRAFT or REVISING; otherwise its detail. */
export function signUpTarget(info: Pick<ParticipantInfo, 'teamStatus'>): string {
  return teamEditable(info.teamStatus) ? MY_SIGN : MY_SIGN_DETAIL;
}

export function TeamEntryPage() {
  const { t } = useTranslation('site');
  return (
    <EntryGate
      path={SITE_PATHS.signUp}
      title={t('titles.signUp')}
      intro={t('entry.signUp.intro')}
      steps={['entry.signUp.step1', 'entry.signUp.step2', 'entry.signUp.step3']}
      phase="signUp"
      targetOf={signUpTarget}
    />
  );
}
