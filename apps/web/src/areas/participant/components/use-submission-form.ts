import { useMemo } from 'react';
import { Form } from 'antd';
import { schemaRule, useContestMessage, type SchemaRuleOptions } from '../team/contest-rules';
import type { SubmissionFlow } from './submission-flow';
import { useDraftSubmit, type FormMode } from './use-draft-submit';

type IssueSchema = ReturnType<SchemaRuleOptions<unknown>['schema']>;

export interface SubmissionFormOptions<V, P, D> {
  /** The saved record (null: none yet) and the form's values for it. */
  record: D | null;
  values(record: D | null): V;
  /** The form's values as the calls send them. */
  payload(values: V): P;
  /** The server's own schemas (packages/shared): lenient for a draft, complete for a submission. */
  schemas: { draft: IssueSchema; submit: IssueSchema };
  /** A check the schema makes only once everything else is valid; the form says it at once. */
  extra?(path: readonly (string | number)[], values: V, mode: FormMode): string | null;
}

/**
 * The sign-up and materials forms' state: the form, its initial values, the draft/submit flow
 * and `rule(...path)`, a field's validator. Rules check the submit schema; saving a draft
 * switches them to the lenient one for that run, so form and server refuse with one message.
 */
export function useSubmissionForm<V, P, D>(flow: SubmissionFlow<P, D>, { record, values, payload, schemas, extra }: SubmissionFormOptions<V, P, D>) {
  const translate = useContestMessage();
  const [form] = Form.useForm<V>();
  const initialValues = useMemo(() => values(record), [values, record]);
  const draft = useDraftSubmit(flow, form, payload);
  const rule = (...path: (string | number)[]) =>
    schemaRule<V>(form, path, {
      schema: () => (draft.mode.current === 'draft' ? schemas.draft : schemas.submit),
      payload,
      translate,
      extra: extra && ((v) => extra(path, v, draft.mode.current)),
    });
  return { form, initialValues, draft, rule };
}
