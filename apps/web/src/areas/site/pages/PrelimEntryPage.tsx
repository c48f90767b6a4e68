import { useTranslation } from 'react-i18next';
import { PRELIM_EDITABLE_STATUSES, type PrelimDocStatus } from '@contest/shared';
import type { ParticipantInfo } from '../../../lib/session';
import { EntryGate } from '../components/EntryGate';
import { SITE_PATHS } from '../routes';
import '../site-pages.css';

const MATERIALS = '/material-submission';
const MATERIALS_DETAIL = '/material-submission/detail';

/**
 * docs/rules/prelim.md, "Status machine": the materials form only for DRAFT, REVISING, NOT_FILLED or null (null: the
 * sign-up is not approved yet, and the form page explains that); otherwise the detail.
 */
export function materialsTarget(info: Pick<ParticipantInfo, 'prelimDocStatus'>): string {
  return (PRELIM_EDITABLE_STATUSES as readonly (PrelimDocStatus | null)[]).includes(info.prelimDocStatus)
    ? MATERIALS
    : MATERIALS_DETAIL;
}

export function PrelimEntryPage() {
  const { t } = useTranslation('site');
  return (
    <EntryGate
      path={SITE_PATHS.materialsSubmit}
      title={t('titles.materialsSubmit')}
      intro={t('entry.materials.intro')}
      steps={['entry.materials.step1', 'entry.materials.step2', 'entry.materials.step3']}
      phase="prelimSubmission"
      targetOf={materialsTarget}
    />
  );
}
