import { useState } from 'react';
import { Alert, Button, Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { APPEAL_REPLY_MAX, type AppealDetail, type AppealRereviewMode } from '@contest/shared';
import { useFeedback } from '../../../components/feedback';
import { useResultsMessage, useResultsText } from '../../../components/results';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { ExpertPicker } from '../review/ExpertPicker';
import { acceptAppeal, rejectAppeal } from './results-api';
import { RefusalAlert, reasonOf } from './results-common';

/** The review module's limit on experts added in one re-review. */
const ADD_MAX = 20;

type Decision = 'REJECT' | 'ACCEPT';

interface Values {
  reply: string;
  expertIds?: string[];
}

export interface AppealDecidePanelProps {
  appeal: AppealDetail;
  /** The decision was taken: the answer is the appeal as it is now. */
  onDecided(next: AppealDetail): void;
  /** Someone else decided first (or the appeal changed): read it again. */
  onReload(): void;
}

/**
 * 处理申诉 (`appeal:decide`): a reply either way; 驳回, or 受理并复评 with how the project is re-reviewed
 * (every submitted score returned, or experts added, chosen from 专家库 as on the score page). The
 * row version read with the appeal goes back with the decision: another admin's decision in between
 * is refused (已被他人处理) and the panel offers to read the appeal again.
 */
export function AppealDecidePanel({ appeal, onDecided, onReload }: AppealDecidePanelProps) {
  const { t } = useTranslation('results');
  const text = useResultsText();
  const translate = useResultsMessage();
  const { message, modal } = useFeedback();
  const [form] = Form.useForm<Values>();
  // The choices live outside the form: its fields come and go with them.
  const [decision, setDecision] = useState<Decision>('REJECT');
  const [mode, setMode] = useState<AppealRereviewMode>('RETURN_SCORES');
  const [stale, setStale] = useState<string | null>(null);

  const askAccept = (experts: number) =>
    new Promise<boolean>((resolve) => {
      modal.confirm({
        title: t('decide.confirmTitle'),
        content: mode === 'ADD_EXPERTS' ? t('decide.confirmAddExperts', { count: experts }) : t('decide.confirmReturnScores'),
        okText: t('decide.submitAccept'),
        cancelText: t('common.cancel'),
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      });
    });

  const { busy, error, submit } = useFormSubmit<Values, unknown>(
    form,
    async (values) => {
      const reply = values.reply.trim();
      const next =
        decision === 'REJECT'
          ? await rejectAppeal(appeal.id, { reply, version: appeal.rowVersion })
          : await acceptAppeal(appeal.id, {
              reply,
              version: appeal.rowVersion,
              mode,
              expertIds: mode === 'ADD_EXPERTS' ? (values.expertIds ?? []) : [],
            });
      void message.success(text(decision === 'REJECT' ? 'appealRejected' : 'appealAccepted'));
      onDecided(next);
    },
    (e) => {
      const reason = reasonOf(e);
      if (reason !== 'STALE' && reason !== 'NOT_ALLOWED') return e;
      // Decided or changed meanwhile: what is on screen is out of date.
      setStale(e instanceof Error ? e.message : text('appealDecided'));
      return null;
    },
    // 受理并复评 sends the project back to the experts and cannot be undone: it asks first.
    (values) => (decision === 'ACCEPT' ? askAccept(values.expertIds?.length ?? 0) : Promise.resolve(true)),
  );

  if (stale) {
    return (
      <Alert
        type="warning"
        showIcon
        title={translate(stale)}
        description={t('decide.staleHint')}
        action={
          <Button size="small" type="primary" onClick={onReload} data-testid="decide-reload">
            {t('decide.reload')}
          </Button>
        }
        data-testid="decide-stale"
      />
    );
  }

  return (
    <div data-testid="decide-panel">
      <Form<Values>
        form={form}
        layout="vertical"
        className="results-form"
        initialValues={{ reply: '', expertIds: [] }}
        disabled={busy}
      >
        <Form.Item label={t('decide.decision')}>
          <Radio.Group
            value={decision}
            onChange={(e) => setDecision(e.target.value as Decision)}
            options={[
              { value: 'REJECT', label: t('decide.reject') },
              { value: 'ACCEPT', label: t('decide.accept') },
            ]}
          />
        </Form.Item>
        {decision === 'ACCEPT' && (
          <>
            <Form.Item label={t('decide.mode')}>
              <Radio.Group
                value={mode}
                onChange={(e) => setMode(e.target.value as AppealRereviewMode)}
                options={[
                  { value: 'RETURN_SCORES', label: t('rereviewMode.RETURN_SCORES') },
                  { value: 'ADD_EXPERTS', label: t('rereviewMode.ADD_EXPERTS') },
                ]}
              />
            </Form.Item>
            {mode === 'ADD_EXPERTS' ? (
              <Form.Item
                name="expertIds"
                label={t('decide.experts')}
                required
                rules={[{ type: 'array', min: 1, message: text('appealExpertsRequired') }]}
              >
                <ExpertPicker round={appeal.round} max={ADD_MAX} exclusive={false} />
              </Form.Item>
            ) : (
              <Alert type="warning" showIcon className="results-block" title={t('decide.returnHint')} />
            )}
          </>
        )}
        <Form.Item
          name="reply"
          label={t('decide.reply')}
          required
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const trimmed = (value ?? '').trim();
                if (trimmed === '') throw new Error(text('appealReplyRequired'));
                if (Array.from(trimmed).length > APPEAL_REPLY_MAX) throw new Error(text('appealReplyTooLong'));
              },
            },
          ]}
        >
          <Input.TextArea rows={4} count={{ show: true, max: APPEAL_REPLY_MAX }} placeholder={t('decide.replyPlaceholder')} />
        </Form.Item>
      </Form>
      {error !== null && <RefusalAlert error={error} />}
      <Button
        type="primary"
        danger={decision !== 'ACCEPT'}
        loading={busy}
        onClick={() => void submit()}
        data-testid="decide-submit"
      >
        {decision === 'ACCEPT' ? t('decide.submitAccept') : t('decide.submitReject')}
      </Button>
    </div>
  );
}
