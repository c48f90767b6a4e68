import { useEffect, useState } from 'react';
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
import { LiveFormDialog } from './LiveFormDialog';

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

/**
 * The link as a QR code, to open it on the projector's computer or a phone without typing. Drawn
 * in the browser as SVG (no canvas needed); the library is loaded only when a link is shown, so
 * it weighs on no other page.
 */
function LinkQrCode({ url }: { url: string }) {
  const { t } = useTranslation('liveAdmin');
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((qr) => qr.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }))
      .then((text) => live && setSvg(text))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [url]);
  if (failed) return null;
  return (
    <figure className="live-once__qr" data-testid="live-display-qr">
      {svg ? (
        <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt={t('displays.qrAlt')} width={200} height={200} />
      ) : (
        <div className="live-once__qr-loading" aria-hidden="true" />
      )}
      <figcaption className="live-muted">{t('displays.qrHint')}</figcaption>
    </figure>
  );
}

/** The full link, shown once: selectable, a copy button and a QR code. */
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
      <LinkQrCode url={url} />
    </div>
  );
}

function CreateDisplayDialog({ open, sessionId, onClose, onCreated }: { open: boolean; sessionId: string; onClose(): void; onCreated(link: LiveDisplayLink): void }) {
  const { t } = useTranslation('liveAdmin');
  const [form] = Form.useForm<{ name: string }>();
  const submission = useFormSubmit(
    form,
    async (values) => onCreated(await createDisplay(sessionId, { name: (values.name ?? '').trim() })),
    liveErrorText,
  );
  return (
    <LiveFormDialog open={open} title={t('displays.createTitle')} submission={submission} onClose={onClose} data-testid="live-display-dialog">
      <Form form={form} layout="vertical" clearOnDestroy initialValues={{ name: '' }}>
        <Form.Item name="name" label={t('displays.name')} rules={[{ max: 30, message: t('displays.nameTooLong') }]}>
          <Input maxLength={30} placeholder={t('displays.namePlaceholder')} />
        </Form.Item>
      </Form>
    </LiveFormDialog>
  );
}
