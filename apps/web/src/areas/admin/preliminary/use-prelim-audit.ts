import { useTranslation } from 'react-i18next';
import { isStale, type AuditDecision } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { auditPrelim } from './prelim-api';

/**
 * One decision of the formal check, sending the version the operator saw. Done: a toast and
 * `onDone`. STALE (someone else decided, or the team resubmitted): the server's message and
 * `onStale` (reload what is shown). Other refusals reject, so the form shows the message.
 */
export function usePrelimAudit({ onDone, onStale }: { onDone(): void; onStale(): void }) {
  const { t } = useTranslation('admin');
  const { message } = useFeedback();
  return async (id: string, version: number, decision: AuditDecision): Promise<void> => {
    try {
      await auditPrelim(id, { ...decision, version });
    } catch (error) {
      if (!isStale(error)) throw error;
      void message.warning((error as Error).message);
      onStale();
      return;
    }
    void message.success(t('pages.prelim.audit.audited'));
    onDone();
  };
}
