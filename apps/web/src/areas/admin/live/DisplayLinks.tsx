import { useState } from 'react';
import { Alert, Button, Form, Input, Space, Tag, Typography } from 'antd';
import { CopyOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LIVE_MSG, type LiveDisplayLink } from '@contest/shared';
import { AppDialog, CardTitle, DataTable, type KitColumn } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { Permission, usePermission } from '../../../lib/permission';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { LIVE_QUERY_KEYS, createDisplay, fetchDisplays, revokeDisplay } from './live-api';
import { liveErrorText, liveText } from './live-errors';

/** The full address of a display path, to open on the projector's computer. */
export const displayUrl = (path: string) => `${window.location.origin}${path}`;

/**
 * 大屏链接 (docs/live-final.md, "Big screen and display links"): the session's links (token
 * shortened), create one (its full link shown once, with a copy button), revoke with a confirm.
 */
export function DisplayLinks({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation('liveAdmin');
  const { t: ta } = useTranslation('admin');
  const { message, modal } = useFeedback();
  const can = usePermission();
  const queryClient = useQueryClient();
  const links = useQuery({ queryKey: LIVE_QUERY_KEYS.displays(sessionId), queryFn: () => fetchDisplays(sessionId) });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<LiveDisplayLink | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: LIVE_QUERY_KEYS.displays(sessionId) });

  const revoke = (link: LiveDisplayLink) =>
    modal.confirm({
      title: t('chair.confirmTitle'),
      content: t('displays.revokeConfirm', { name: link.name || t('displays.unnamed') }),
      okText: t('displays.revoke'),
      cancelText: ta('kit.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await revokeDisplay(sessionId, link.id);
          void message.success(liveText(LIVE_MSG.displayRevoked));
        } catch (e) {
          void message.error(liveErrorText(e) ?? '');
        }
        refresh();
      },
    });

  const columns: KitColumn<LiveDisplayLink>[] = [
    { title: t('displays.name'), dataIndex: 'name', render: (name: string) => name || t('displays.unnamed') },
    { title: t('displays.token'), dataIndex: 'token', render: (token: string) => <code>{token}</code> },
    { title: t('displays.createdAt'), dataIndex: 'createdAt', dateTime: true },
    { title: t('displays.lastSeenAt'), dataIndex: 'lastSeenAt', dateTime: true },
    {
      title: t('displays.state'),
      dataIndex: 'revoked',
      render: (revoked: boolean) => <Tag color={revoked ? 'default' : 'success'}>{revoked ? t('displays.revoked') : t('displays.active')}</Tag>,
    },
    ...(can({ codes: ['live:display'] })
      ? [
          {
            title: t('chair.actionsCol'),
            key: 'actions',
            render: (_: unknown, link: LiveDisplayLink) =>
              link.revoked ? null : (
                <Button type="link" size="small" danger onClick={() => revoke(link)} aria-label={`${t('displays.revoke')} ${link.name || t('displays.unnamed')}`} data-testid="live-display-revoke">
                  {t('displays.revoke')}
                </Button>
              ),
          },
        ]
      : []),
  ];

  return (
    <section className="live-card" data-testid="live-displays">
      <CardTitle
        title={t('displays.title')}
        extra={
          <Permission codes={['live:display']}>
            <Button icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="live-display-create">
              {t('displays.create')}
            </Button>
          </Permission>
        }
      />
      <DataTable<LiveDisplayLink> rowKey="id" columns={columns} dataSource={links.data ?? []} loading={links.isLoading} />
      <CreateDisplayDialog
        open={creating}
        sessionId={sessionId}
        onClose={() => setCreating(false)}
        onCreated={(link) => {
          setCreating(false);
          setCreated(link);
          refresh();
        }}
      />
      <AppDialog
        open={created !== null}
        title={t('displays.onceTitle')}
        footer={
          <Button type="primary" onClick={() => setCreated(null)}>
            {ta('kit.ok')}
          </Button>
        }
        onCancel={() => setCreated(null)}
        data-testid="live-display-once"
      >
        {created && <OnceLink url={displayUrl(created.path)} />}
      </AppDialog>
    </section>
  );
}

/** The full link, shown once: selectable, and a copy button. */
function OnceLink({ url }: { url: string }) {
  const { t } = useTranslation('liveAdmin');
  const { message } = useFeedback();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      void message.success(t('displays.copied'));
    } catch {
      void message.error(t('displays.copyFailed'));
    }
  };
  return (
    <div className="live-once">
      <Alert type="warning" showIcon title={t('displays.onceHint')} />
      <label className="live-once__label" htmlFor="live-once-url">
        {t('displays.link')}
      </label>
      <Space.Compact className="live-once__row">
        <Input id="live-once-url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} data-testid="live-display-url" />
        <Button type="primary" icon={<CopyOutlined />} onClick={() => void copy()}>
          {t('displays.copy')}
        </Button>
      </Space.Compact>
      <Typography.Paragraph type="secondary" className="live-once__note">
        <a href={url} target="_blank" rel="noreferrer">
          {url}
        </a>
      </Typography.Paragraph>
    </div>
  );
}

function CreateDisplayDialog({ open, sessionId, onClose, onCreated }: { open: boolean; sessionId: string; onClose(): void; onCreated(link: LiveDisplayLink): void }) {
  const { t } = useTranslation('liveAdmin');
  const [form] = Form.useForm<{ name: string }>();
  const { busy, error, setError, submit } = useFormSubmit(
    form,
    async (values) => onCreated(await createDisplay(sessionId, { name: (values.name ?? '').trim() })),
    liveErrorText,
  );
  return (
    <AppDialog
      open={open}
      title={t('displays.createTitle')}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={() => {
        if (busy) return;
        setError(null);
        onClose();
      }}
      data-testid="live-display-dialog"
    >
      <Form form={form} layout="vertical" clearOnDestroy initialValues={{ name: '' }}>
        <Form.Item name="name" label={t('displays.name')} rules={[{ max: 30, message: t('displays.nameTooLong') }]}>
          <Input maxLength={30} placeholder={t('displays.namePlaceholder')} />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} />}
    </AppDialog>
  );
}
