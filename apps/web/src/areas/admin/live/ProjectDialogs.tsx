import { useMemo } from 'react';
import { Checkbox, Form, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LiveCandidates, LiveSessionDetail } from '@contest/shared';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { importProjects, setProjects } from './live-api';
import { liveErrorText } from './live-errors';
import { LiveFormDialog } from './LiveFormDialog';

interface DialogProps {
  open: boolean;
  session: LiveSessionDetail;
  candidates: LiveCandidates | undefined;
  onClose(): void;
  /** The session as the server answered. */
  onDone(detail: LiveSessionDetail): void;
  /** A refusal that means the page is out of date (STALE): reload it. */
  onStale(error: unknown): boolean;
}

/** 添加项目: final-round projects not yet in a session, appended to the running order. */
export function AddProjectsDialog({ open, session, candidates, onClose, onDone, onStale }: DialogProps) {
  const { t } = useTranslation('liveAdmin');
  const [form] = Form.useForm<{ projectIds: string[] }>();
  const options = useMemo(() => {
    const inSession = new Set(session.projectList.map((p) => p.projectId));
    return (candidates?.projects ?? [])
      .filter((p) => !inSession.has(p.projectId))
      .map((p) => ({
        value: p.projectId,
        disabled: p.sessionId !== null,
        label: `${p.projectName} · ${p.teamName} · ${p.orgName}${p.sessionName ? ` (${t('plan.inSession', { name: p.sessionName })})` : ''}`,
      }));
  }, [candidates, session, t]);
  const submission = useFormSubmit(
    form,
    async (values) => {
      const ids = [...session.projectList.map((p) => p.projectId), ...(values.projectIds ?? [])];
      onDone(await setProjects(session.id, { projectIds: ids, version: session.version }));
      onClose();
    },
    (e) => (onStale(e) ? null : liveErrorText(e)),
  );
  return (
    <LiveFormDialog open={open} title={t('plan.addTitle')} width={680} submission={submission} onClose={onClose} data-testid="live-add-dialog">
      <Form form={form} layout="vertical" clearOnDestroy initialValues={{ projectIds: [] }}>
        <Form.Item name="projectIds" label={t('plan.addProjects')} extra={t('plan.addHint')} rules={[{ required: true, type: 'array', min: 1, message: t('plan.addPlaceholder') }]}>
          <Select mode="multiple" showSearch optionFilterProp="label" options={options} placeholder={t('plan.addPlaceholder')} />
        </Form.Item>
      </Form>
    </LiveFormDialog>
  );
}

interface ImportValues {
  groupId: string;
  judges: boolean;
  order: 'NAME' | 'RANDOM';
}

/** 从评审组导入: a final group's free projects appended (by name or drawn), its experts added as judges while 未开始. */
export function ImportDialog({ open, session, candidates, onClose, onDone, onStale }: DialogProps) {
  const { t } = useTranslation('liveAdmin');
  const [form] = Form.useForm<ImportValues>();
  const planned = session.status === 'PLANNED';
  const submission = useFormSubmit(
    form,
    async (values) => {
      onDone(await importProjects(session.id, { groupId: values.groupId, judges: planned && values.judges, order: values.order }));
      onClose();
    },
    (e) => (onStale(e) ? null : liveErrorText(e)),
  );
  return (
    <LiveFormDialog open={open} title={t('plan.importTitle')} submission={submission} onClose={onClose} data-testid="live-import-dialog">
      <Form form={form} layout="vertical" clearOnDestroy initialValues={{ judges: planned, order: 'NAME' }}>
        <Form.Item name="groupId" label={t('plan.importGroup')} rules={[{ required: true, message: t('plan.importGroupRequired') }]}>
          <Select
            options={(candidates?.groups ?? []).map((g) => ({ value: g.id, label: t('plan.groupOption', { name: g.name, experts: g.experts, projects: g.projects }) }))}
            placeholder={t('plan.importGroupRequired')}
          />
        </Form.Item>
        <Form.Item name="judges" valuePropName="checked">
          <Checkbox disabled={!planned}>{t('plan.importJudges')}</Checkbox>
        </Form.Item>
        <Form.Item name="order" label={t('plan.importOrder')}>
          <Radio.Group
            options={[
              { value: 'NAME', label: t('plan.importOrderName') },
              { value: 'RANDOM', label: t('plan.importOrderRandom') },
            ]}
          />
        </Form.Item>
      </Form>
    </LiveFormDialog>
  );
}
