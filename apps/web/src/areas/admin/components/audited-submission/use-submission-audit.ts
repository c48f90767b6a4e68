import type { AdminAuditInput } from '@contest/shared';
import { isStale, type AuditDecision } from '../../../../components/admin-kit';
import { refusalText } from '../../../../components/admin-kit/refusal-text';
import { useFeedback } from '../../../../components/feedback';

/** The area's audit call (sent `silent`: the dialog or panel shows a refusal, not a toast). */
export type SendAudit = (id: string, body: AdminAuditInput) => Promise<unknown>;

/**
 * One decision on a sign-up or on materials, sending the version the operator saw. Done: a toast
 * (`doneText`) and `onDone`. STALE (someone else decided, or the team resubmitted): the server's
 * message and `onStale` (reload what is shown; `onDone` unless given), and a dialog closes since
 * the record it showed is gone. Other refusals reject, so the dialog or panel keeps the message.
 */
export function useSubmissionAudit(send: SendAudit, doneText: string, onDone: () => void, onStale: () => void = onDone) {
  const { message } = useFeedback();
  return async (id: string, version: number, decision: AuditDecision): Promise<void> => {
    try {
      await send(id, { ...decision, version });
    } catch (error) {
      if (!isStale(error)) throw error;
      void message.warning(refusalText(error) ?? (error as Error).message);
      onStale();
      return;
    }
    void message.success(doneText);
    onDone();
  };
}
