import { useState } from 'react';
import { Alert, Button, Descriptions, Result, Space, Spin, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, EditOutlined, ImportOutlined, PlayCircleOutlined, PlusOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIVE_MSG, type LivePlannedProject, type LiveSessionDetail } from '@contest/shared';
import { CardTitle } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { Permission, usePermission } from '../../../lib/permission';
import { DisplayLinks } from './DisplayLinks';
import { LIVE_QUERY_KEYS, fetchCandidates, fetchSession, setProjects } from './live-api';
import { isStale, liveErrorText, liveText } from './live-errors';
import { livePaths } from './LiveSessionsPage';
import { SessionStatusTag } from './LiveStatusTag';
import { AddProjectsDialog, ImportDialog } from './ProjectDialogs';
import { ProjectOrder } from './ProjectOrder';
import { SessionDialog, type SessionTarget } from './SessionDialog';
import './live.css';

/**
 * A session's planning page (答辩场次编排): its facts, judges, the running order with each
 * project's expected and left-out judges, add / remove / reorder / import projects, the printable
 * running order, and the big-screen links.
 */
export function LiveSessionPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('liveAdmin');
  const { t: ta } = useTranslation('admin');
  const { message, modal } = useFeedback();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const can = usePermission();
  const canPlan = can({ codes: ['live:plan'] });
  const detail = useQuery({ queryKey: LIVE_QUERY_KEYS.session(id), queryFn: () => fetchSession(id) });
  const candidates = useQuery({ queryKey: LIVE_QUERY_KEYS.candidates, queryFn: fetchCandidates, enabled: canPlan });
  const [editing, setEditing] = useState<SessionTarget>(null);
  const [dialog, setDialog] = useState<'add' | 'import' | null>(null);
  const [saving, setSaving] = useState(false);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: LIVE_QUERY_KEYS.all });
  const took = (next: LiveSessionDetail) => {
    queryClient.setQueryData(LIVE_QUERY_KEYS.session(id), next);
    void queryClient.invalidateQueries({ queryKey: LIVE_QUERY_KEYS.list });
    void queryClient.invalidateQueries({ queryKey: LIVE_QUERY_KEYS.candidates });
  };
  /** STALE: say so and show the session as it is now. */
  const onStale = (e: unknown) => {
    if (!isStale(e)) return false;
    void message.warning(liveErrorText(e) ?? t('chair.stale'));
    refresh();
    return true;
  };

  const save = async (projectIds: string[], success = liveText(LIVE_MSG.orderSaved)) => {
    const session = detail.data;
    if (!session) return;
    setSaving(true);
    try {
      took(await setProjects(id, { projectIds, version: session.version }));
      void message.success(success);
    } catch (e) {
      if (!onStale(e)) void message.error(liveErrorText(e) ?? '');
    } finally {
      setSaving(false);
    }
  };

  const remove = (project: LivePlannedProject, order: string[]) =>
    modal.confirm({
      title: t('chair.confirmTitle'),
      content: t('plan.removeConfirm', { name: project.projectName }),
      okText: ta('kit.ok'),
      cancelText: ta('kit.cancel'),
      okButtonProps: { danger: true },
      onOk: () => save(order.filter((pid) => pid !== project.projectId), liveText(LIVE_MSG.sessionSaved)),
    });

  if (detail.isLoading) return <Spin className="live-loading" />;
  if (!detail.data) return <Result status="warning" title={<h1 className="admin-result-title">{liveErrorText(detail.error) ?? t('msg.sessionNotFound')}</h1>} />;
  const session = detail.data;
  const editable = canPlan && session.status !== 'ENDED';

  return (
    <section className="admin-page live-plan" data-testid="live-session-page">
      <div className="live-head">
        <div>
          <Link to={livePaths.list} className="live-back">
            <ArrowLeftOutlined /> {t('plan.back')}
          </Link>
          <h1 className="admin-page__title live-head__title">
            {session.name} <SessionStatusTag status={session.status} />
          </h1>
        </div>
        <Space wrap>
          {editable && (
            <Button
              icon={<EditOutlined />}
              onClick={() => setEditing({ ...session, judgeIds: session.judgeList.map((j) => j.expertId) })}
              data-testid="live-edit"
            >
              {t('list.edit')}
            </Button>
          )}
          <Button icon={<PrinterOutlined />} onClick={() => void navigate(livePaths.runningOrder(id))} data-testid="live-print-link">
            {t('plan.runningOrder')}
          </Button>
          <Permission codes={['live:chair']}>
            <Button type="primary" icon={<PlayCircleOutlined />} onClick={() => void navigate(livePaths.chair(id))} data-testid="live-chair-link">
              {t('plan.chair')}
            </Button>
          </Permission>
        </Space>
      </div>

      <section className="live-card">
        <CardTitle title={t('plan.overview')} />
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }}>
          <Descriptions.Item label={t('fields.venue')}>{session.venue}</Descriptions.Item>
          <Descriptions.Item label={t('fields.date')}>{session.date}</Descriptions.Item>
          <Descriptions.Item label={t('fields.startTimeBeijing')}>{session.startTime ?? '--'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.presentationMinutes')}>{session.presentationMinutes}</Descriptions.Item>
          <Descriptions.Item label={t('fields.qaMinutes')}>{session.qaMinutes}</Descriptions.Item>
          <Descriptions.Item label={t('fields.projectCount')}>
            {session.done} / {session.projects}
          </Descriptions.Item>
        </Descriptions>
      </section>

      <section className="live-card" data-testid="live-judges">
        <CardTitle title={t('plan.judges', { count: session.judgeList.length })} />
        {session.judgeList.length === 0 ? (
          <Typography.Text type="secondary">{t('plan.noJudges')}</Typography.Text>
        ) : (
          <ul className="live-judges">
            {session.judgeList.map((j) => (
              <li key={j.expertId}>
                <strong>{j.code}</strong> {j.name}
                <Typography.Text type="secondary"> · {j.organization}</Typography.Text>
                {!j.enabled && <Tag color="red">{ta('pages.common.disabled')}</Tag>}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="live-card" data-testid="live-projects">
        <CardTitle
          title={t('plan.projects', { count: session.projectList.length })}
          extra={
            editable && (
              <Space wrap>
                <Button icon={<PlusOutlined />} onClick={() => setDialog('add')} data-testid="live-add-open">
                  {t('plan.addProjects')}
                </Button>
                <Button icon={<ImportOutlined />} onClick={() => setDialog('import')} data-testid="live-import-open">
                  {t('plan.import')}
                </Button>
              </Space>
            )
          }
        />
        {session.warnings.length > 0 && (
          <Alert
            type="warning"
            showIcon
            className="live-warnings"
            title={t('plan.warnings')}
            description={
              <ul>
                {session.warnings.map((w) => (
                  <li key={w.projectId}>
                    {session.projectList.find((p) => p.projectId === w.projectId)?.projectName}
                    {t('plan.colon')}
                    {liveText(w.message)}
                  </li>
                ))}
              </ul>
            }
            data-testid="live-warnings"
          />
        )}
        <ProjectOrder projects={session.projectList} judges={session.judgeList} canEdit={editable} busy={saving} onSave={(ids) => save(ids)} onRemove={remove} />
      </section>

      <DisplayLinks sessionId={id} />

      <SessionDialog target={editing} onClose={() => setEditing(null)} onSaved={() => refresh()} />
      <AddProjectsDialog
        open={dialog === 'add'}
        session={session}
        candidates={candidates.data}
        onClose={() => setDialog(null)}
        onDone={(next) => {
          took(next);
          void message.success(liveText(LIVE_MSG.sessionSaved));
        }}
        onStale={onStale}
      />
      <ImportDialog
        open={dialog === 'import'}
        session={session}
        candidates={candidates.data}
        onClose={() => setDialog(null)}
        onDone={(next) => {
          took(next);
          void message.success(t('plan.imported'));
        }}
        onStale={onStale}
      />
    </section>
  );
}
