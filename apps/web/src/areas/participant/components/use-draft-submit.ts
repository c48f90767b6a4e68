import { useRef, useState, type RefObject } from 'react';
import { type FormInstance } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CONTEST_MSG } from '@contest/shared';
import { USER_ACCOUNT_QUERY_KEY } from '../../../lib/session';
import { refusalOf, useContestMessage } from '../team/contest-rules';
import { useFeedback } from '../../../components/feedback';
import { validateAndFocus } from '../../../lib/form-errors';
import type { SubmissionFlow } from './submission-flow';

export type FormMode = 'draft' | 'submit';

export interface DraftSubmit {
  /** Which rules the field validators apply: the lenient draft schema during a save, else submit. */
  mode: RefObject<FormMode>;
  busy: FormMode | null;
  /** The server's refusal, shown above the form (and under the field it names). */
  refusal: string | null;
  clearRefusal(): void;
  onSaveDraft(): Promise<void>;
  onSubmit(): Promise<void>;
}

/**
 * The draft/submit flow the sign-up and the materials forms share: validate with the rules of
 * the action, save, refresh the user info (its statuses drive the route guards), and for a
 * submission confirm first and then go to the detail page. A server refusal lands under the
 * field it names.
 */
export function useDraftSubmit<V, P, D>(flow: SubmissionFlow<P, D>, form: FormInstance<V>, payload: (values: V) => P): DraftSubmit {
  const { t } = useTranslation('signup');
  const { message, modal } = useFeedback();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const translate = useContestMessage();
  const [busy, setBusy] = useState<FormMode | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const mode = useRef<FormMode>('submit');

  const validate = async (kind: FormMode): Promise<boolean> => {
    mode.current = kind;
    try {
      await validateAndFocus(form, { recursive: true });
      return true;
    } catch {
      // validateAndFocus has scrolled to the first wrong field and focused it.
      return false;
    } finally {
      mode.current = 'submit';
    }
  };

  const showRefusal = (err: unknown) => {
    const refused = refusalOf(err);
    if (!refused) return;
    const text = translate(refused.message);
    setRefusal(text);
    if (refused.path) {
      form.setFields([{ name: refused.path as never, errors: [text] }]);
      form.scrollToField(refused.path, { block: 'center' });
    }
  };

  const afterChange = async (saved: D) => {
    queryClient.setQueryData(flow.keys.record, saved);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: USER_ACCOUNT_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: flow.keys.brief }),
    ]);
  };

  const body = () => payload(form.getFieldsValue(true) as V);

  const onSaveDraft = async () => {
    setRefusal(null);
    if (!(await validate('draft'))) return;
    setBusy('draft');
    try {
      const saved = await flow.api.saveDraft(body());
      void message.success(translate(CONTEST_MSG.draftSaved));
      await afterChange(saved);
    } catch (err) {
      showRefusal(err);
    } finally {
      setBusy(null);
    }
  };

  const onSubmit = async () => {
    setRefusal(null);
    if (!(await validate('submit'))) return;
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t(flow.words.confirmSubmit),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        setBusy('submit');
        try {
          const saved = await flow.api.submit(body());
          void message.success(translate(CONTEST_MSG.submitted));
          await afterChange(saved);
          void navigate(flow.paths.detail);
        } catch (err) {
          showRefusal(err);
        } finally {
          setBusy(null);
        }
      },
    });
  };

  return { mode, busy, refusal, clearRefusal: () => setRefusal(null), onSaveDraft, onSubmit };
}
