import { useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Input, InputNumber, Result, Select, Skeleton, Space, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  RUBRIC_MAX_CRITERIA,
  RUBRIC_TOTAL,
  SCORE_AGGREGATES,
  type Criterion,
  type ReviewRound,
  type RubricView,
  type ScoringRule,
} from '@contest/shared';
import { DataTable } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { errorText } from './errors';
import { REVIEW_QUERY_KEYS, fetchRubric, saveRubric } from './review-api';
import { slugOf } from './round';
import { RuleText } from './RuleText';
import { TieBreakChain } from './TieBreakChain';
import { validateAndFocus } from '../../../lib/form-errors';
import { useCriterionText } from '../../../lib/criterion-text';

/** rubric.ts criterionSchema and settings.ts minScoresSchema. */
const NAME_MAX = 20;
const DESCRIPTION_MAX = 200;
const NAME_EN_MAX = 60;
const DESCRIPTION_EN_MAX = 400;
const TRIM_MIN = 3;
const TRIM_MAX = 20;

interface CriterionValues {
  key?: string;
  name: string;
  description: string;
  max: number | null;
  nameEn?: string;
  descriptionEn?: string;
}
interface Values {
  criteria: CriterionValues[];
  rule: ScoringRule;
}

const toValues = (view: RubricView): Values => ({
  criteria: view.criteria.map((c) => ({ ...c })),
  rule: { ...view.rule, tieBreak: [...view.rule.tieBreak] },
});

/**
 * 评分细则: the round's criteria (name, description, maximum; added, removed, reordered; the
 * maxima add up to 100, shown as they are typed) and its scoring rule (aggregate, minimum scores
 * for trimming, tie-break order). Read-only once locked (a sheet was saved) or without the button.
 */
export function RubricCard({ round, canEdit }: { round: ReviewRound; canEdit: boolean }) {
  const { t } = useTranslation('review');
  const text = useCriterionText();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const slug = slugOf(round);
  const rubric = useQuery({ queryKey: REVIEW_QUERY_KEYS.rubric(slug), queryFn: () => fetchRubric(slug) });
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const criteria = Form.useWatch('criteria', form) as CriterionValues[] | undefined;
  const sum = (criteria ?? []).reduce((s, c) => s + (typeof c?.max === 'number' ? c.max : 0), 0);

  const data = rubric.data;
  const editable = canEdit && data !== undefined && !data.locked;
  useEffect(() => {
    if (data && editable) form.setFieldsValue(toValues(data));
  }, [data, editable, form]);

  if (rubric.isError) {
    return (
      <Result
        status="warning"
        title={t('rubric.loadFailed')}
        extra={<Button onClick={() => void rubric.refetch()}>{t('common.reload')}</Button>}
      />
    );
  }
  if (!data) return <Skeleton active paragraph={{ rows: 6 }} data-testid="rubric-loading" />;

  const save = async () => {
    let values: Values;
    try {
      await validateAndFocus(form);
      // Every value, the criteria's keys included (they have no form item of their own).
      values = form.getFieldsValue(true) as Values;
    } catch {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const saved = await saveRubric(slug, {
        criteria: values.criteria.map((c) => ({
          ...(c.key ? { key: c.key } : {}),
          name: c.name.trim(),
          description: (c.description ?? '').trim(),
          max: c.max ?? 0,
          nameEn: (c.nameEn ?? '').trim(),
          descriptionEn: (c.descriptionEn ?? '').trim(),
        })),
        rule: values.rule,
      });
      queryClient.setQueryData(REVIEW_QUERY_KEYS.rubric(slug), saved);
      void message.success(t('rubric.saved'));
    } catch (e) {
      setError(errorText(e));
      // A lock that happened meanwhile: show the card as it is now.
      void rubric.refetch();
    } finally {
      setBusy(false);
    }
  };

  const readColumns: ColumnsType<Criterion> = [
    { title: '#', key: 'index', width: 48, render: (_, __, i) => i + 1 },
    { title: t('rubric.criterion'), dataIndex: 'name', render: (_: string, c) => text(c).name },
    { title: t('rubric.description'), dataIndex: 'description', render: (_: string, c) => <span className="review-reason">{text(c).description}</span> },
    { title: t('rubric.max'), dataIndex: 'max', align: 'right' },
  ];

  return (
    <Card
      size="small"
      title={t('rubric.title')}
      extra={data.locked && <Typography.Text type="secondary"><LockOutlined /> {t('rubric.lockedTag')}</Typography.Text>}
      data-testid="rubric-card"
    >
      {data.locked && <Alert type="info" showIcon title={t('rubric.locked')} className="review-block" data-testid="rubric-locked" />}
      {!editable ? (
        <>
          <DataTable<Criterion> rowKey="key" columns={readColumns} dataSource={data.criteria} data-testid="rubric-read" />
          <p className="review-sum">{t('rubric.sum', { sum: data.criteria.reduce((s, c) => s + c.max, 0), total: RUBRIC_TOTAL })}</p>
          <h3 className="review-subtitle">{t('rubric.rule')}</h3>
          <RuleText rule={data.rule} />
        </>
      ) : (
        <Form<Values> form={form} layout="vertical" initialValues={toValues(data)} data-testid="rubric-form">
          <Form.List name="criteria">
            {(fields, { add, remove, move }) => (
              <>
                <div className="review-criteria">
                  {fields.map((field, i) => {
                    const name = criteria?.[i]?.name || t('rubric.criterionN', { n: i + 1 });
                    return (
                      <div key={field.key} className="review-criterion" data-testid="criterion-row">
                        <span className="review-criterion__index">{i + 1}</span>
                        <Form.Item
                          name={[field.name, 'name']}
                          label={t('rubric.criterion')}
                          className="review-criterion__name"
                          rules={[
                            { required: true, whitespace: true, message: t('rubric.nameRequired') },
                            { max: NAME_MAX, message: t('rubric.nameTooLong', { max: NAME_MAX }) },
                          ]}
                        >
                          <Input maxLength={NAME_MAX} />
                        </Form.Item>
                        <Form.Item
                          name={[field.name, 'description']}
                          label={t('rubric.description')}
                          className="review-criterion__description"
                          rules={[{ max: DESCRIPTION_MAX, message: t('rubric.descriptionTooLong', { max: DESCRIPTION_MAX }) }]}
                        >
                          <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={DESCRIPTION_MAX} />
                        </Form.Item>
                        <Form.Item
                          name={[field.name, 'max']}
                          label={t('rubric.max')}
                          className="review-criterion__max"
                          rules={[{ required: true, type: 'integer', min: 1, max: 100, message: t('rubric.maxInvalid') }]}
                        >
                          <InputNumber min={1} max={100} precision={0} />
                        </Form.Item>
                        {/* English pages show these (the Chinese when empty); on a row of their own. */}
                        <Form.Item
                          name={[field.name, 'nameEn']}
                          label={t('rubric.nameEn')}
                          className="review-criterion__name-en"
                          rules={[{ max: NAME_EN_MAX, message: t('rubric.nameEnTooLong', { max: NAME_EN_MAX }) }]}
                        >
                          <Input maxLength={NAME_EN_MAX} />
                        </Form.Item>
                        <Form.Item
                          name={[field.name, 'descriptionEn']}
                          label={t('rubric.descriptionEn')}
                          className="review-criterion__description-en"
                          rules={[{ max: DESCRIPTION_EN_MAX, message: t('rubric.descriptionEnTooLong', { max: DESCRIPTION_EN_MAX }) }]}
                        >
                          <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={DESCRIPTION_EN_MAX} />
                        </Form.Item>
                        <Space size={0} className="review-criterion__actions">
                          <Button type="text" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => move(i, i - 1)} aria-label={t('rubric.moveUpOf', { name })} />
                          <Button
                            type="text"
                            icon={<ArrowDownOutlined />}
                            disabled={i === fields.length - 1}
                            onClick={() => move(i, i + 1)}
                            aria-label={t('rubric.moveDownOf', { name })}
                          />
                          <Button
                            type="text"
                            danger
                            icon={<DeleteOutlined />}
                            disabled={fields.length <= 1}
                            onClick={() => remove(field.name)}
                            aria-label={t('rubric.removeOf', { name })}
                          />
                        </Space>
                      </div>
                    );
                  })}
                </div>
                <div className="review-criteria__foot">
                  <Button
                    icon={<PlusOutlined />}
                    disabled={fields.length >= RUBRIC_MAX_CRITERIA}
                    onClick={() => add({ name: '', description: '', max: null })}
                    data-testid="criterion-add"
                  >
                    {t('rubric.add', { max: RUBRIC_MAX_CRITERIA })}
                  </Button>
                  <Typography.Text type={sum === RUBRIC_TOTAL ? 'success' : 'danger'} strong data-testid="rubric-sum" aria-live="polite">
                    {t('rubric.sum', { sum, total: RUBRIC_TOTAL })}
                  </Typography.Text>
                </div>
              </>
            )}
          </Form.List>
          <h3 className="review-subtitle">{t('rubric.rule')}</h3>
          <div className="review-rule-form">
            <Form.Item name={['rule', 'aggregate']} label={t('rubric.aggregate')} rules={[{ required: true }]}>
              <Select options={SCORE_AGGREGATES.map((a) => ({ value: a, label: t(`aggregates.${a}`) }))} data-testid="rubric-aggregate" />
            </Form.Item>
            <Form.Item
              name={['rule', 'minScoresForTrim']}
              label={t('rubric.minScoresForTrim')}
              extra={t('rubric.minScoresHint')}
              rules={[{ required: true, type: 'integer', min: TRIM_MIN, max: TRIM_MAX, message: t('rubric.minScoresInvalid', { min: TRIM_MIN, max: TRIM_MAX }) }]}
            >
              <InputNumber min={TRIM_MIN} max={TRIM_MAX} precision={0} />
            </Form.Item>
            <Form.Item name={['rule', 'tieBreak']} label={t('rubric.tieBreak')} extra={t('rubric.tieBreakHint')}>
              <TieBreakChain />
            </Form.Item>
          </div>
          {error && <Alert type="error" showIcon title={error} className="review-block" data-testid="rubric-error" />}
          <Button
            type="primary"
            loading={busy}
            disabled={sum !== RUBRIC_TOTAL}
            onClick={() => void save()}
            data-testid="rubric-save"
          >
            {t('common.save')}
          </Button>
        </Form>
      )}
    </Card>
  );
}
