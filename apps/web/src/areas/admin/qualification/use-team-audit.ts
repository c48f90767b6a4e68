import { useTranslation } from 'react-i18next';
import type { AuditDecision } from '../../../components/admin-kit';
import { isStale } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { auditTeam } from './team-api';

/**
 * One sign-up's decision, sending the version the operator saw. Done: a toast and `refresh`.
 * STALE (someone else decided, or the team resubmitted): the server's message and `refresh`,
 * and the dialog closes since the record it showed is gone. Other refusals reject, so the
 * dialog stays open with the message.
 */
export function useTeamAudit(refresh: () => void) {
  const { t } = useTranslation('admin');
  const { message } = useFeedback();
  return async (id: string, version: number, decision: AuditDecision): Promise<void> => {
    try {
      await auditTeam(id, { ...decision, version });
    } catch (error) {
      if (!isStale(error)) throw error;
      void message.warning((error as Error).message);
      refresh();
      return;
    }
    void message.success(t('pages.qualification.audited'));
    refresh();
  };
}
