import { useMemo } from 'react';
import { DatePicker, Form, Input, InputNumber, Select, TimePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LIVE_JUDGES_MAX, LIVE_MSG, type LiveSessionBody, type LiveSessionRow } from '@contest/shared';
import { useFeedback } from '../../../components/feedback';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { LIVE_QUERY_KEYS, createSession, fetchCandidates, updateSession } from './live-api';
import { isStale, liveErrorText, liveText } from './live-errors';
import { LiveFormDialog } from './LiveFormDialog';

interface Values {
  name: string;
  venue: string;
  date: Dayjs | null;
  startTime: Dayjs | null;
  presentationMinutes: number | null;
  qaMinutes: number | null;
  judgeIds: string[];
}

/** What the dialog edits: a row of the list (judges by id) or a new session. */
export type SessionTarget = (LiveSessionRow & { judgeIds: string[] }) | 'new' | null;

export interface SessionDialogProps {
  target: SessionTarget;
  onClose(): void;
  /** After the server took it (and after a STALE refusal: the page is out of date). */
  onSaved(id: string): void;
}

/** 新建 / 编辑答辩场次: name, venue, date, start time, the two durations and the judges (LiveSessionBody). */
export function SessionDialog({ target, onClose, onSaved }: SessionDialogProps) {
  const { t } = useTranslation('liveAdmin');
  const { message } = useFeedback();
  const [form] = Form.useForm<Values>();
  const open = target !== null;
  const session = target === 'new' || target === null ? null : target;
  const judgesLocked = session !== null && session.status !== 'PLANNED';
  const candidates = useQuery({ queryKey: LIVE_QUERY_KEYS.candidates, queryFn: fetchCandidates, enabled: open });

  const judgeOptions = useMemo(
    () =>
      (candidates.data?.judges ?? []).map((j) => ({
        value: j.expertId,
        label: t('list.judgeOption', { code: j.code, name: j.name, organization: j.organization, group: j.groupName }),
      })),
    [candidates.data, t],
  );

  const submission = useFormSubmit(
    form,
    async (values) => {
      const body: LiveSessionBody = {
        name: values.name.trim(),
        venue: values.venue.trim(),
        date: values.date!.format('YYYY-MM-DD'),
        startTime: values.startTime ? values.startTime.format('HH:mm') : null,
        presentationMinutes: values.presentationMinutes!,
        qaMinutes: values.qaMinutes!,
        judgeIds: values.judgeIds ?? [],
      };
      const saved = session ? await updateSession(session.id, { ...body, version: session.version }) : await createSession(body);
      void message.success(liveText(LIVE_MSG.sessionSaved));
      onSaved(saved.id);
      onClose();
    },
    (e) => {
      if (!isStale(e) || !session) return liveErrorText(e);
      void message.warning(liveErrorText(e) ?? t('chair.stale'));
      onSaved(session.id);
      onClose();
      return null;
    },
  );

  const initialValues: Partial<Values> = session
    ? {
        name: session.name,
        venue: session.venue,
        date: dayjs(session.date, 'YYYY-MM-DD'),
        startTime: session.startTime ? dayjs(session.startTime, 'HH:mm') : null,
        presentationMinutes: session.presentationMinutes,
        qaMinutes: session.qaMinutes,
        judgeIds: session.judgeIds,
      }
    : { name: '', venue: '', date: null, startTime: null, presentationMinutes: 8, qaMinutes: 5, judgeIds: [] };

  return (
    <LiveFormDialog
      open={open}
      title={session ? t('list.editTitle') : t('list.createTitle')}
      width={680}
      submission={submission}
      onClose={onClose}
      data-testid="live-session-dialog"
    >
      <Form<Values> form={form} layout="vertical" clearOnDestroy initialValues={initialValues} className="live-session-form">
        <Form.Item
          name="name"
          label={t('fields.name')}
          rules={[
            { required: true, whitespace: true, message: t('msg.sessionNameRequired') },
            { max: 50, message: t('msg.sessionNameTooLong') },
          ]}
        >
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item
          name="venue"
          label={t('fields.venue')}
          rules={[
            { required: true, whitespace: true, message: t('msg.venueRequired') },
            { max: 100, message: t('msg.venueTooLong') },
          ]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <div className="live-form-row">
          <Form.Item name="date" label={t('fields.date')} rules={[{ required: true, message: t('msg.dateInvalid') }]}>
            <DatePicker format="YYYY-MM-DD" className="live-form-full" />
          </Form.Item>
          <Form.Item name="startTime" label={t('fields.startTimeBeijing')} extra={t('list.startTimeHint')}>
            <TimePicker format="HH:mm" minuteStep={5} needConfirm={false} className="live-form-full" />
          </Form.Item>
        </div>
        <div className="live-form-row">
          <Form.Item
            name="presentationMinutes"
            label={t('fields.presentationMinutes')}
            rules={[{ required: true, type: 'integer', min: 1, max: 60, message: t('msg.presentationMinutesInvalid') }]}
          >
            <InputNumber min={1} max={60} precision={0} className="live-form-full" />
          </Form.Item>
          <Form.Item
            name="qaMinutes"
            label={t('fields.qaMinutes')}
            rules={[{ required: true, type: 'integer', min: 0, max: 60, message: t('msg.qaMinutesInvalid') }]}
          >
            <InputNumber min={0} max={60} precision={0} className="live-form-full" />
          </Form.Item>
        </div>
        <Form.Item
          name="judgeIds"
          label={t('fields.judges')}
          extra={judgesLocked ? t('list.judgesLocked') : t('list.judgesHint')}
          rules={[
            { required: true, type: 'array', min: 1, message: t('msg.judgesRequired') },
            { type: 'array', max: LIVE_JUDGES_MAX, message: t('msg.judgesTooMany') },
          ]}
        >
          <Select
            mode="multiple"
            options={judgeOptions}
            optionFilterProp="label"
            showSearch
            allowClear
            disabled={judgesLocked}
            loading={candidates.isLoading}
            placeholder={t('list.judgesPlaceholder')}
            data-testid="live-judges-select"
          />
        </Form.Item>
      </Form>
    </LiveFormDialog>
  );
}
