import { useTranslation } from 'react-i18next';
import { useDraftRemind } from '../use-draft-remind';
import type { AuditedWorkflow } from './workflow';

/** The workflow's remind buttons (drafts list and draft page): once per team per day. */
export function useWorkflowRemind<R, D>(workflow: AuditedWorkflow<R, D>, onDone?: () => void) {
  const { t } = useTranslation('admin');
  const { remind } = workflow;
  return useDraftRemind(
    {
      send: workflow.api.remind,
      listKey: workflow.keys.drafts,
      codes: workflow.codes.remind,
      texts: { remind: t(remind.remind), remindAll: t(remind.remindAll), remindSelected: t(remind.remindSelected), confirmAll: t(remind.confirmAll) },
    },
    onDone,
  );
}
