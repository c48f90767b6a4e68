import { useEffect, useRef } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, Result, Skeleton, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CREDIT_CODE_LENGTH, EXPERT_DECLARED_MAX, creditCodeValid, type ExpertOrganisations } from '@contest/shared';
import { refusalText } from '../../../components/admin-kit/refusal-text';
import { moveFocusSoon } from '../../../components/a11y/move-focus';
import { useFeedback } from '../../../components/feedback';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { EXPERT_QUERY_KEYS, declareOrganisation, fetchOrganisations, isAgreementRequired } from '../expert-api';
import { useAgreementLost } from '../use-agreement';
import '../expert.css';
import '../expert-conflicts.css';

/** declaredOrgSchema (packages/shared/src/review/api.ts): the name, at most 100 characters. */
export const DECLARED_NAME_MAX = 100;

interface Values {
  name: string;
  creditCode?: string;
}

/**
 * 申报回避单位 (docs/rules/review.md, "Conflicts of interest"; docs/api-review.md, "Declared
 * organisations"): the expert's own organisation, the organisations declared so far (by the
 * admins or by the expert) and a form adding one. A declared organisation keeps the expert off
 * its projects, as their own does: those projects leave the review lists at once. The expert
 * adds, never removes (the admins withdraw a declaration); at most EXPERT_DECLARED_MAX.
 */
export function OrganisationsPage() {
  const { t } = useTranslation('expert');
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const agreementLost = useAgreementLost();
  const [form] = Form.useForm<Values>();
  const listRef = useRef<HTMLDivElement>(null);
  const query = useQuery({ queryKey: EXPERT_QUERY_KEYS.organisations, queryFn: fetchOrganisations });
  useEffect(() => {
    if (isAgreementRequired(query.error)) agreementLost();
  }, [query.error, agreementLost]);

  const { busy, error, submit } = useFormSubmit(
    form,
    async (values) => {
      const code = values.creditCode?.trim().toUpperCase();
      const next = await declareOrganisation({ name: values.name.trim(), ...(code ? { creditCode: code } : {}) });
      queryClient.setQueryData(EXPERT_QUERY_KEYS.organisations, next);
      // Projects of the organisation left the expert's lists: what the lists and the home show is read again.
      void queryClient.invalidateQueries({ queryKey: EXPERT_QUERY_KEYS.all });
      form.resetFields();
      void message.success(t('organisations.added'));
      // The list grew: focus goes to it (its heading says how many), so the new entry is read next.
      moveFocusSoon(() => listRef.current, { force: true });
    },
    (e) => {
      if (isAgreementRequired(e)) {
        agreementLost();
        return null;
      }
      return refusalText(e) ?? t('organisations.failed');
    },
  );

  const heading = (
    <Typography.Title level={1} className="expert-review__title expert-orgs__title">
      {t('organisations.title')}
    </Typography.Title>
  );

  if (query.isPending) return <Skeleton active paragraph={{ rows: 6 }} data-testid="orgs-loading" aria-label={t('detail.loading')} />;
  if (query.isError) {
    if (isAgreementRequired(query.error)) return null;
    return (
      <div className="expert-orgs">
        {heading}
        <Result
          status="warning"
          title={t('organisations.loadFailed')}
          extra={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
          data-testid="orgs-error"
        />
      </div>
    );
  }

  const data: ExpertOrganisations = query.data;
  const full = data.declaredOrgs.length >= EXPERT_DECLARED_MAX;
  return (
    <div className="expert-orgs" data-testid="orgs-page">
      {heading}
      <Alert type="info" showIcon title={t('organisations.explain')} description={t('organisations.explainMore')} className="expert-orgs__explain" />
      <Card title={<h2 className="expert-score__title">{t('organisations.own')}</h2>} className="expert-orgs__card">
        <Descriptions
          size="small"
          column={1}
          items={[
            { key: 'name', label: t('organisations.name'), children: <span data-testid="orgs-own">{data.organization || '--'}</span> },
            { key: 'code', label: t('organisations.creditCode'), children: data.orgCreditCode || '--' },
          ]}
        />
      </Card>
      <Card
        title={
          <h2 className="expert-score__title" id="orgs-declared">
            {t('organisations.declared', { count: data.declaredOrgs.length, max: EXPERT_DECLARED_MAX })}
          </h2>
        }
        className="expert-orgs__card"
      >
        <div ref={listRef} aria-labelledby="orgs-declared" role="region" data-testid="orgs-list">
          {data.declaredOrgs.length === 0 ? (
            <Typography.Text type="secondary">{t('organisations.none')}</Typography.Text>
          ) : (
            <ul className="expert-orgs__list">
              {data.declaredOrgs.map((org, i) => (
                <li key={`${org.name}-${i}`} className="expert-orgs__item" data-testid="orgs-item">
                  <span className="expert-orgs__name">{org.name}</span>
                  <Typography.Text type="secondary">{org.creditCode || t('organisations.noCode')}</Typography.Text>
                </li>
              ))}
            </ul>
          )}
        </div>
        <Typography.Paragraph type="secondary" className="expert-orgs__note">
          {t('organisations.noRemoval')}
        </Typography.Paragraph>
      </Card>
      <Card title={<h2 className="expert-score__title">{t('organisations.add')}</h2>} className="expert-orgs__card">
        {full ? (
          <Alert type="warning" showIcon title={t('organisations.full', { max: EXPERT_DECLARED_MAX })} data-testid="orgs-full" />
        ) : (
          <Form<Values>
            form={form}
            name="declare-organisation"
            layout="vertical"
            requiredMark={false}
            initialValues={{ name: '', creditCode: '' }}
            onFinish={() => void submit()}
            // A refused check: the same path, which moves focus to the first field in error and says it.
            onFinishFailed={() => void submit()}
            className="expert-orgs__form"
            data-testid="orgs-form"
          >
            <Form.Item
              name="name"
              label={t('organisations.name')}
              rules={[
                {
                  validator: async (_rule, value: string | undefined) => {
                    const text = (value ?? '').trim();
                    if (text === '') throw new Error(t('organisations.nameRequired'));
                    if (Array.from(text).length > DECLARED_NAME_MAX) throw new Error(t('organisations.nameTooLong', { max: DECLARED_NAME_MAX }));
                  },
                },
              ]}
            >
              <Input maxLength={DECLARED_NAME_MAX + 20} placeholder={t('organisations.namePlaceholder')} data-testid="orgs-name" />
            </Form.Item>
            <Form.Item
              name="creditCode"
              label={t('organisations.creditCodeOptional')}
              extra={t('organisations.creditCodeHint')}
              rules={[
                {
                  validator: async (_rule, value: string | undefined) => {
                    const code = (value ?? '').trim().toUpperCase();
                    if (code === '') return;
                    if (code.length !== CREDIT_CODE_LENGTH) throw new Error(t('organisations.creditCodeLength', { n: CREDIT_CODE_LENGTH }));
                    if (!creditCodeValid(code)) throw new Error(t('organisations.creditCodeInvalid'));
                  },
                },
              ]}
            >
              <Input maxLength={CREDIT_CODE_LENGTH} autoComplete="off" data-testid="orgs-code" />
            </Form.Item>
            {error && <Alert type="error" showIcon title={error} className="expert-orgs__error" data-testid="orgs-add-error" />}
            <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={busy} data-testid="orgs-submit">
              {t('organisations.submit')}
            </Button>
          </Form>
        )}
      </Card>
    </div>
  );
}
