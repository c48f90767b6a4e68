import { useState } from 'react';
import { Alert, Button, Form, Input, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { MailOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CALIBRATION_NOTE_MAX, type CalibrationFlag, type CalibrationRow, type CalibrationView, type ReviewRound } from '@contest/shared';
import { AppDialog, ExportButton } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { errorText } from '../review/errors';
import { slugOf } from '../review/round';
import { QUALITY_QUERY_KEYS, calibrationExportUrl, fetchCalibration, sendCalibrationNote } from './judging-quality-api';
import { LeniencyChart } from './LeniencyChart';
import { NoScores, QueryState, fixed, signed1, useQualityAccess } from './quality-common';

const FLAG_COLOR: Record<CalibrationFlag, string> = { LENIENT: 'gold', HARSH: 'blue', DISAGREES: 'red' };

export function FlagTags({ flags }: { flags: CalibrationFlag[] }) {
  const { t } = useTranslation('review');
  if (flags.length === 0) return <Typography.Text type="secondary">{t('quality.flags.none')}</Typography.Text>;
  return (
    <Space size={4} wrap>
      {flags.map((f) => (
        <Tag key={f} color={FLAG_COLOR[f]} data-testid={`flag-${f}`}>
          {t(`quality.flags.${f}`)}
        </Tag>
      ))}
    </Space>
  );
}

/**
 * 专家校准 (docs/rules/judging-quality.md, "Calibration"): the panel's figures, leniency per expert
 * as a chart, the table with flags; export (score export button) and a private note to one expert
 * (remind button).
 */
export function CalibrationSection({ round }: { round: ReviewRound }) {
  const { t } = useTranslation('review');
  const slug = slugOf(round);
  const access = useQualityAccess(round);
  const query = useQuery({ queryKey: QUALITY_QUERY_KEYS.calibration(slug), queryFn: () => fetchCalibration(slug) });
  const [noteTo, setNoteTo] = useState<CalibrationRow | null>(null);

  const columns: ColumnsType<CalibrationRow> = [
    { title: t('common.expertCode'), dataIndex: 'code', width: 96 },
    { title: t('common.expertName'), dataIndex: 'name' },
    { title: t('quality.calibration.organization'), dataIndex: 'organization', render: (v: string) => v || '--' },
    { title: t('quality.calibration.scored'), dataIndex: 'scored', align: 'right' },
    { title: t('quality.calibration.shared'), dataIndex: 'sharedProjects', align: 'right' },
    {
      title: t('quality.calibration.leniency'),
      dataIndex: 'leniency',
      align: 'right',
      render: (v: number | null) => <span className="review-num" data-testid="leniency">{signed1(v)}</span>,
    },
    { title: t('quality.calibration.spread'), dataIndex: 'spread', align: 'right', render: (v: number | null) => <span className="review-num">{fixed(v, 1)}</span> },
    {
      title: t('quality.calibration.agreement'),
      dataIndex: 'agreement',
      align: 'right',
      render: (v: number | null) => <span className="review-num" data-testid="agreement">{fixed(v, 2)}</span>,
    },
    { title: t('quality.calibration.flags'), dataIndex: 'flags', render: (flags: CalibrationFlag[]) => <FlagTags flags={flags} /> },
    ...(access.note
      ? [
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_: unknown, row: CalibrationRow) => (
              <Button type="link" size="small" icon={<MailOutlined />} onClick={() => setNoteTo(row)} data-testid="note-open" aria-label={t('quality.note.openOf', { name: row.name })}>
                {t('quality.note.open')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <section className="quality-section" aria-labelledby="quality-calibration" data-testid="quality-calibration">
      <div className="quality-section__head">
        <h2 id="quality-calibration" className="quality-section__title">
          {t('quality.calibration.title')}
        </h2>
        {access.export && (
          <ExportButton url={calibrationExportUrl(slug)} fallbackName={t('quality.calibration.exportName', { round: t(`rounds.${round}`) })} data-testid="calibration-export" />
        )}
      </div>
      <Typography.Paragraph type="secondary" className="quality-section__hint">
        {t('quality.calibration.hint')}
      </Typography.Paragraph>
      <QueryState query={query} testId="calibration">
        {(view) =>
          view.experts.every((e) => e.scored === 0) ? (
            <NoScores testId="calibration-empty" />
          ) : (
            <>
              <PanelFigures view={view} />
              <LeniencyChart view={view} />
              <Table<CalibrationRow>
                size="small"
                rowKey="expertId"
                columns={columns}
                dataSource={view.experts}
                scroll={{ x: 'max-content' }}
                pagination={{ pageSize: 50, size: 'small', showSizeChanger: false, hideOnSinglePage: true }}
                data-testid="calibration-table"
              />
            </>
          )
        }
      </QueryState>
      <NoteDialog round={round} expert={noteTo} onClose={() => setNoteTo(null)} />
    </section>
  );
}

function PanelFigures({ view }: { view: CalibrationView }) {
  const { t } = useTranslation('review');
  const flagged = view.experts.filter((e) => e.flags.length > 0).length;
  const items = [
    { key: 'experts', label: t('quality.calibration.panelExperts'), value: String(view.panel.experts) },
    { key: 'mean', label: t('quality.calibration.panelMean'), value: signed1(view.panel.leniencyMean) },
    { key: 'sd', label: t('quality.calibration.panelSd'), value: fixed(view.panel.leniencySd, 2) },
    { key: 'flagged', label: t('quality.calibration.flagged'), value: String(flagged) },
  ];
  return (
    <div className="quality-figures" data-testid="calibration-panel">
      <dl className="quality-figures__list">
        {items.map((i) => (
          <div className="quality-figure" key={i.key} data-testid={`panel-${i.key}`}>
            <dt>{i.label}</dt>
            <dd>{i.value}</dd>
          </div>
        ))}
      </dl>
      <Typography.Text type="secondary">
        {t('quality.calibration.rule', { aggregate: t(`aggregates.${view.rule.aggregate}`), factor: view.leniencyFactor })}
      </Typography.Text>
      {view.panel.experts < 3 && <Alert type="info" showIcon title={t('quality.calibration.smallPanel')} className="review-block" data-testid="calibration-small-panel" />}
    </div>
  );
}

interface NoteValues {
  text: string;
}

/** 发送私信: a note to one expert about their scoring, in-site (the remind button). */
function NoteDialog({ round, expert, onClose }: { round: ReviewRound; expert: CalibrationRow | null; onClose(): void }) {
  const { t } = useTranslation('review');
  const { message } = useFeedback();
  const [form] = Form.useForm<NoteValues>();
  const { busy, error, setError, submit } = useFormSubmit(
    form,
    async (values) => {
      if (!expert) return;
      await sendCalibrationNote(slugOf(round), { expertId: expert.expertId, text: values.text.trim() });
      void message.success(t('quality.note.sent'));
      onClose();
    },
    errorText,
  );
  return (
    <AppDialog
      open={expert !== null}
      title={t('quality.note.title')}
      okText={t('quality.note.send')}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={() => {
        if (!busy) {
          setError(null);
          onClose();
        }
      }}
      data-testid="note-dialog"
    >
      {expert && <p>{t('quality.note.to', { code: expert.code, name: expert.name })}</p>}
      <Form<NoteValues> form={form} layout="vertical" clearOnDestroy initialValues={{ text: '' }}>
        <Form.Item
          name="text"
          label={t('quality.note.text')}
          required
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const text = (value ?? '').trim();
                if (text === '') throw new Error(t('quality.note.required'));
                if (Array.from(text).length > CALIBRATION_NOTE_MAX) throw new Error(t('quality.note.tooLong', { max: CALIBRATION_NOTE_MAX }));
              },
            },
          ]}
        >
          <Input.TextArea rows={4} count={{ show: true, max: CALIBRATION_NOTE_MAX }} placeholder={t('quality.note.placeholder')} />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} data-testid="review-dialog-error" />}
    </AppDialog>
  );
}
