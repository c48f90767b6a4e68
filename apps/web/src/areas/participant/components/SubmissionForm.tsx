import type { ReactNode } from 'react';
import { Button, Form, Space, Typography, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormAlerts } from './FormAlerts';
import type { SubmissionFlow, SubmissionRecord } from './submission-flow';
import type { DraftSubmit } from './use-draft-submit';

export interface SubmissionFormProps<V, P, D> {
  flow: SubmissionFlow<P, D>;
  /** The saved record, if any: returned for changes, the reviewer's reason shows above the form. */
  record: Pick<SubmissionRecord, 'status' | 'auditReason'> | null;
  /** The grey line beside the title; none when null. */
  aside: string | null;
  form: FormInstance<V>;
  initialValues: V;
  /** The draft/submit flow of the form (useDraftSubmit). */
  draft: DraftSubmit;
  /** Whether the phase window is open; when closed, the flow's words say why saving is disabled. */
  open: boolean;
  /** What to say when closed instead of the flow's own words (e.g. when the window opens). */
  closedText?: string | null;
  /** The form's cards. */
  children: ReactNode;
}

/**
 * The frame of the sign-up and materials forms (docs/rules/team.md, docs/rules/prelim.md):
 * title, notices, the cards, then 保存草稿 and 提交, disabled while one runs. Outside the window the
 * form is read-only and has no buttons: an editable form whose work cannot be saved would lose it.
 */
export function SubmissionForm<V extends object, P, D>({ flow, record, aside, form, initialValues, draft, open, closedText, children }: SubmissionFormProps<V, P, D>) {
  const { t } = useTranslation('signup');
  const { busy } = draft;
  return (
    <div className="contest-page" data-testid={flow.testIds.page}>
      <div className="contest-page__head">
        <Typography.Title level={4} className="contest-page__title">
          {t(flow.words.formTitle)}
        </Typography.Title>
        {aside !== null && <Typography.Text type="secondary">{aside}</Typography.Text>}
      </div>

      <FormAlerts
        revising={record?.status === 'REVISING'}
        auditReason={record?.auditReason}
        closedText={open ? null : (closedText ?? t(flow.words.closed))}
        refusal={draft.refusal}
        onCloseRefusal={draft.clearRefusal}
      />

      <Form<V>
        form={form}
        layout="vertical"
        initialValues={initialValues}
        className="contest-form"
        data-testid={flow.testIds.form}
        disabled={!open}
        data-readonly={open ? undefined : 'true'}
      >
        {children}

        {open && (
          <div className="contest-actions">
            <Space wrap>
              <Button onClick={() => void draft.onSaveDraft()} loading={busy === 'draft'} disabled={busy !== null} data-testid="save-draft">
                {t('common.saveDraft')}
              </Button>
              <Button type="primary" onClick={() => void draft.onSubmit()} loading={busy === 'submit'} disabled={busy !== null} data-testid="submit">
                {t('common.submit')}
              </Button>
            </Space>
          </div>
        )}
      </Form>
    </div>
  );
}
