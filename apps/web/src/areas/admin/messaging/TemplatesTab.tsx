import { useCallback, useState } from 'react';
import { Button, Space, Switch, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MESSAGE_CHANNELS, TEMPLATE_KINDS, type MessageChannel, type MessageTemplateItem, type TemplateKind } from '@contest/shared';
import { ApiError } from '../../../api';
import { SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { usePermission } from '../../../lib/permission';
import { MESSAGING_QUERY_KEYS, deleteTemplate, fetchTemplatePage, setTemplateEnabled, type TemplateListParams } from './messaging-api';
import { useMessagingMessage } from './messaging-messages';
import { TemplateEditor } from './TemplateEditor';

/** Who may change templates (the server checks it again on every write). */
export const TEMPLATE_BUTTON = 'sms:template';
const EXCERPT = 40;

const excerpt = (text: string) => (text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text);

function fieldsFor(channel: MessageChannel | undefined): SearchField[] {
  return [
    { name: 'keyword', label: 'messaging:templates.filters.keyword', kind: 'text', placeholder: 'messaging:templates.filters.keywordPlaceholder', width: 220 },
    {
      name: 'kind',
      label: 'messaging:templates.filters.kind',
      kind: 'select',
      options: TEMPLATE_KINDS.map((k) => ({ value: k, label: k === 'EVENT' ? 'messaging:templates.event' : 'messaging:templates.bulk' })),
    },
    ...(channel
      ? []
      : [
          {
            name: 'channel',
            label: 'messaging:templates.filters.channel',
            kind: 'select' as const,
            options: MESSAGE_CHANNELS.map((c) => ({ value: c, label: `messaging:channel.${c}` })),
          },
        ]),
  ];
}
const FIELDS_ANY = fieldsFor(undefined);
const FIELDS_ONE = fieldsFor('SMS');

interface Filters {
  keyword?: string;
  kind?: TemplateKind;
  channel?: MessageChannel;
}

/**
 * Message templates (/admin/templates): event notices and bulk templates, filtered by channel
 * and keyword (in the URL). With 编辑短信模板 (sms:template): the enabled switch, 编辑, 恢复默认
 * of an edited event template, 删除 of a bulk template and 新建群发模板; without it, 查看 only.
 * `channel` fixes the channel (短信管理 shows the SMS templates); without it every channel is listed.
 */
export function TemplatesTab({ channel }: { channel?: MessageChannel }) {
  const { t } = useTranslation('messaging');
  const { t: ta } = useTranslation('admin');
  const { modal, message } = useFeedback();
  const translate = useMessagingMessage();
  const queryClient = useQueryClient();
  const can = usePermission();
  const canEdit = can({ codes: [TEMPLATE_BUTTON] });
  const [editing, setEditing] = useState<{ template: MessageTemplateItem | null } | null>(null);
  const [toggling, setToggling] = useState<string | null>(null);
  const sms = channel === 'SMS';

  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: MESSAGING_QUERY_KEYS.templatesAll }), [queryClient]);
  const fetchPage = useCallback((params: Filters & { page: number; size: number }) => fetchTemplatePage({ ...params, ...(channel ? { channel } : {}) } as TemplateListParams), [channel]);

  const fail = (err: unknown) => {
    if (err instanceof ApiError) void message.error(translate(err.message));
  };

  const toggle = async (row: MessageTemplateItem, enabled: boolean) => {
    setToggling(row.key);
    try {
      const answer = await setTemplateEnabled(row.key, enabled, row.version);
      void message.success(translate(answer.message));
    } catch (err) {
      fail(err);
    } finally {
      setToggling(null);
      refresh();
    }
  };

  /** 恢复默认 (an edited event template) or 删除 (a bulk template): the same call, confirmed first. */
  const remove = (row: MessageTemplateItem) => {
    const reset = row.code !== null;
    modal.confirm({
      title: reset ? t('templates.confirm.resetTitle') : t('templates.confirm.deleteTitle'),
      content: reset ? t('templates.confirm.reset', { name: row.name }) : t('templates.confirm.delete', { name: row.name }),
      okText: ta('kit.ok'),
      cancelText: ta('kit.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const answer = await deleteTemplate(row.key);
          void message.success(translate(answer.message));
        } catch (err) {
          fail(err);
        } finally {
          refresh();
        }
      },
    });
  };

  const columns: SearchColumns<MessageTemplateItem> = [
    {
      title: t('templates.name'),
      dataIndex: 'name',
      render: (name: string, row) => (
        <Space orientation="vertical" size={0}>
          <strong>{name}</strong>
          {row.eventName && row.eventName !== name && <Typography.Text type="secondary">{row.eventName}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t('templates.kind'),
      dataIndex: 'code',
      render: (code: string | null, row) => (
        <Space size={4} wrap>
          <Tag color={code ? 'blue' : 'purple'}>{code ? t('templates.event') : t('templates.bulk')}</Tag>
          {row.customized && <Tag data-testid="template-customized">{t('templates.customized')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('templates.channels'),
      dataIndex: 'channels',
      render: (channels: MessageChannel[]) => (
        <Space size={4} wrap>
          {channels.map((c) => (
            <Tag key={c}>{t(`channel.${c}`)}</Tag>
          ))}
        </Space>
      ),
    },
    ...(sms
      ? [
          { title: t('templates.smsText'), dataIndex: 'smsText', render: (text: string) => <span className="messaging-excerpt">{excerpt(text)}</span> },
          { title: t('templates.smsTemplateId'), dataIndex: 'smsTemplateId' },
        ]
      : [
          {
            title: t('templates.content'),
            dataIndex: 'subject',
            render: (subject: string, row: MessageTemplateItem) => <span className="messaging-excerpt">{excerpt(subject || row.smsText)}</span>,
          },
        ]),
    {
      title: t('templates.enabled'),
      dataIndex: 'enabled',
      render: (enabled: boolean, row) =>
        canEdit ? (
          <Switch
            checked={enabled}
            loading={toggling === row.key}
            onChange={(checked) => void toggle(row, checked)}
            checkedChildren={t('templates.on')}
            unCheckedChildren={t('templates.off')}
            aria-label={`${row.name} ${t('templates.enabled')}`}
            data-testid="template-enabled"
          />
        ) : (
          <Tag color={enabled ? 'success' : 'default'}>{enabled ? t('templates.on') : t('templates.off')}</Tag>
        ),
    },
    {
      title: t('templates.updatedAt'),
      dataIndex: 'updatedAt',
      dateTime: true,
    },
    { title: t('templates.updatedBy'), dataIndex: 'updatedBy' },
    {
      title: ta('kit.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setEditing({ template: row })} data-testid={canEdit ? 'template-edit' : 'template-view'}>
            {canEdit ? t('templates.actions.edit') : t('templates.actions.view')}
          </Button>
          {canEdit && row.code && row.customized && (
            <Button type="link" size="small" danger onClick={() => remove(row)} data-testid="template-reset">
              {t('templates.actions.reset')}
            </Button>
          )}
          {canEdit && !row.code && (
            <Button type="link" size="small" danger onClick={() => remove(row)} data-testid="template-delete">
              {t('templates.actions.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="templates-tab">
      <Typography.Paragraph type="secondary">{sms ? t('templates.hint') : t('templates.hintAll')}</Typography.Paragraph>
      <SearchTable<MessageTemplateItem, Filters>
        queryKey={MESSAGING_QUERY_KEYS.templateList(channel ?? 'ANY')}
        fetchPage={fetchPage}
        rowKey="key"
        columns={columns}
        searchFields={channel ? FIELDS_ONE : FIELDS_ANY}
        urlState
        toolbar={
          canEdit ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ template: null })} data-testid="template-create">
              {t('templates.actions.create')}
            </Button>
          ) : null
        }
      />
      <TemplateEditor open={editing !== null} template={editing?.template ?? null} readOnly={!canEdit} onClose={() => setEditing(null)} />
    </Space>
  );
}
