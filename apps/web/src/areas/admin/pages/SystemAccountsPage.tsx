import { useMemo, useState } from 'react';
import { Button, Form, Input, Select, Space } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ADMIN_MSG, emailSchema, isMaskedPii, phoneSchema, systemAccountUpdateSchema, usernameSchema, type SystemAccount } from '@contest/shared';
import { serverText } from '../../../components/admin-kit/refusal-text';
import { AppDialog } from '../../../components/admin-kit/AppDialog';
import { SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { Permission } from '../../../lib/permission';
import { schemaRule, useTranslateMessage } from '../../../lib/form-rules';
import {
  ADMIN_QUERY_KEYS,
  createAccount,
  fetchAccounts,
  fetchRoles,
  resetAccountPassword,
  setAccountEnabled,
  setAccountRoles,
  updateAccount,
} from '../admin-api';
import { PasswordOnceDialog } from '../components/PasswordOnceDialog';
import { piiValue } from '../components/PiiText';
import { StatusTag } from '../components/StatusTag';
import { showFieldError } from '../components/use-field-errors';
import { useFeedback } from '../../../components/feedback';
import { useAccountActions } from '../components/use-account-actions';
import { validateAndFocus } from '../../../lib/form-errors';

interface AccountForm {
  username?: string;
  name: string;
  phone?: string;
  email?: string;
  roleIds: string[];
}

const FORM_FIELDS = ['username', 'name', 'phone', 'email', 'roleIds'] as const;

/** The filters of /admin/system/account; the roles to choose from are loaded. */
function accountFieldsOf(roleOptions: SearchField['options']): SearchField[] {
  return [
    { name: 'username', label: 'pages.fields.username', kind: 'text' },
    { name: 'name', label: 'pages.fields.name', kind: 'text' },
    { name: 'phone', label: 'pages.fields.phone', kind: 'text' },
    {
      name: 'enabled',
      label: 'pages.fields.status',
      kind: 'select',
      width: 120,
      options: [
        { value: 'true', label: 'pages.common.enabled' },
        { value: 'false', label: 'pages.common.disabled' },
      ],
    },
    { name: 'roleId', label: 'pages.fields.roles', kind: 'select', width: 160, options: roleOptions ?? [] },
  ];
}

/** Optional fields: empty is fine, anything typed must pass the shared schema. */
const optional = (schema: Parameters<typeof schemaRule>[0], translate: (m: string) => string) => {
  const rule = schemaRule(schema, translate);
  return {
    validator: async (r: unknown, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      await (rule as { validator: (r: unknown, v: unknown) => Promise<void> }).validator(r, value);
    },
  };
};

/** 系统账号 (/admin/system/systemManage): list, search, create, edit, disable, reset password, assign roles. */
export function SystemAccountsPage() {
  const { t } = useTranslation('admin');
  const { message } = useFeedback();
  const translate = useTranslateMessage();
  const queryClient = useQueryClient();
  const roles = useQuery({ queryKey: ADMIN_QUERY_KEYS.roles, queryFn: fetchRoles });
  const roleOptions = useMemo(() => (roles.data ?? []).map((r) => ({ value: r.id, label: r.name })), [roles.data]);
  const searchFields = useMemo(() => accountFieldsOf(roleOptions), [roleOptions]);

  const [editing, setEditing] = useState<SystemAccount | 'new' | null>(null);
  const [assigning, setAssigning] = useState<SystemAccount | null>(null);
  const [password, setPassword] = useState<{ account: string; password: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<AccountForm>();
  const [rolesForm] = Form.useForm<{ roleIds: string[] }>();

  const refresh = () => queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.accounts });

  const openEdit = (account: SystemAccount | 'new') => {
    setEditing(account);
    form.setFieldsValue(
      account === 'new'
        ? { username: '', name: '', phone: '', email: '', roleIds: [] }
        : {
            name: account.name ?? '',
            phone: account.phone ?? '',
            email: account.email ?? '',
            roleIds: account.roles.map((r) => r.id),
          },
    );
  };

  const save = async () => {
    const values = await validateAndFocus(form);
    setSaving(true);
    try {
      if (editing === 'new') {
        const created = await createAccount(values);
        setPassword({ account: created.account.username, password: created.password });
        void message.success(serverText(ADMIN_MSG.created));
      } else if (editing) {
        const { username: _username, ...body } = values;
        await updateAccount(editing.id, body);
        void message.success(serverText(ADMIN_MSG.saved));
      }
      setEditing(null);
      void refresh();
    } catch (err) {
      showFieldError(form, err, FORM_FIELDS);
    } finally {
      setSaving(false);
    }
  };

  const saveRoles = async () => {
    if (!assigning) return;
    const { roleIds } = await validateAndFocus(rolesForm);
    setSaving(true);
    try {
      await setAccountRoles(assigning.id, roleIds);
      void message.success(serverText(ADMIN_MSG.saved));
      setAssigning(null);
      void refresh();
    } catch {
      // The client has shown the refusal.
    } finally {
      setSaving(false);
    }
  };

  const { toggle, reset } = useAccountActions<SystemAccount>({
    setEnabled: setAccountEnabled,
    resetPassword: resetAccountPassword,
    refresh: () => void refresh(),
    onPassword: setPassword,
  });

  const columns: SearchColumns<SystemAccount> = [
    { title: t('pages.fields.username'), dataIndex: 'username' },
    { title: t('pages.fields.name'), dataIndex: 'name' },
    // Masked; the eye shows the account's phone and e-mail in full (pii:view).
    { title: t('pages.fields.phone'), dataIndex: 'phone', render: (v: string | null, row) => piiValue('account', row.id, 'phone', v) },
    { title: t('pages.fields.email'), dataIndex: 'email', render: (v: string | null, row) => piiValue('account', row.id, 'email', v) },
    { title: t('pages.fields.roles'), dataIndex: 'roles', render: (_, row) => row.roles.map((r) => r.name).join('、') },
    { title: t('pages.fields.status'), dataIndex: 'enabled', render: (_, row) => <StatusTag enabled={row.enabled} /> },
    { title: t('pages.fields.lastLoginAt'), dataIndex: 'lastLoginAt', dateTime: true },
    {
      title: t('kit.actions'),
      key: 'actions',
      render: (_, row) => (
        <Space size={0} wrap>
          <Permission codes={['account:edit']}>
            <Button type="link" size="small" onClick={() => openEdit(row)}>
              {t('pages.common.edit')}
            </Button>
            <Button
              type="link"
              size="small"
              onClick={() => {
                setAssigning(row);
                rolesForm.setFieldsValue({ roleIds: row.roles.map((r) => r.id) });
              }}
            >
              {t('pages.accounts.assignRoles')}
            </Button>
          </Permission>
          <Permission codes={['account:disable']}>
            <Button type="link" size="small" danger={row.enabled} onClick={() => toggle(row)}>
              {row.enabled ? t('pages.common.disable') : t('pages.common.enable')}
            </Button>
          </Permission>
          <Permission codes={['account:reset-password']}>
            <Button type="link" size="small" onClick={() => reset(row)}>
              {t('pages.common.resetPassword')}
            </Button>
          </Permission>
        </Space>
      ),
    },
  ];

  return (
    <section className="admin-page" data-testid="system-accounts-page">
      <h1 className="admin-page__title">{t('titles.systemManage')}</h1>
      <SearchTable<SystemAccount, Record<string, unknown>>
        queryKey={ADMIN_QUERY_KEYS.accounts}
        fetchPage={fetchAccounts}
        rowKey="id"
        columns={columns}
        searchFields={searchFields}
        urlState
        toolbar={
          <Permission codes={['account:edit']}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => openEdit('new')}>
              {t('pages.accounts.create')}
            </Button>
          </Permission>
        }
      />

      <AppDialog
        open={editing !== null}
        title={editing === 'new' ? t('pages.accounts.create') : t('pages.accounts.edit')}
        confirmLoading={saving}
        onOk={() => void save().catch(() => {})}
        onCancel={() => setEditing(null)}
        forceRender
      >
        <Form form={form} layout="vertical" name="system-account">
          {editing === 'new' && (
            <Form.Item name="username" label={t('pages.fields.username')} required rules={[schemaRule(usernameSchema, translate)]}>
              <Input autoComplete="off" />
            </Form.Item>
          )}
          <Form.Item
            name="name"
            label={t('pages.fields.name')}
            required
            rules={[{ required: true, whitespace: true, message: ADMIN_MSG.nameRequired }, { max: 50, message: ADMIN_MSG.nameTooLong }]}
          >
            <Input />
          </Form.Item>
          {/* An edit starts from the masked phone and e-mail: sent back as they are, the stored values stay. */}
          <Form.Item
            name="phone"
            label={t('pages.fields.phone')}
            rules={[optional(editing === 'new' ? phoneSchema : systemAccountUpdateSchema.shape.phone, translate)]}
            extra={editing && editing !== 'new' && isMaskedPii(editing.phone) ? t('pii.keepMasked') : undefined}
          >
            <Input />
          </Form.Item>
          <Form.Item
            name="email"
            label={t('pages.fields.email')}
            rules={[optional(editing === 'new' ? emailSchema : systemAccountUpdateSchema.shape.email, translate)]}
            extra={editing && editing !== 'new' && isMaskedPii(editing.email) ? t('pii.keepMasked') : undefined}
          >
            <Input />
          </Form.Item>
          <Form.Item
            name="roleIds"
            label={t('pages.fields.roles')}
            required
            rules={[{ required: true, type: 'array', min: 1, message: ADMIN_MSG.rolesRequired }]}
          >
            <Select mode="multiple" options={roleOptions} loading={roles.isPending} />
          </Form.Item>
        </Form>
      </AppDialog>

      <AppDialog
        open={assigning !== null}
        title={t('pages.accounts.assignRoles')}
        confirmLoading={saving}
        onOk={() => void saveRoles().catch(() => {})}
        onCancel={() => setAssigning(null)}
        forceRender
      >
        <Form form={rolesForm} layout="vertical" name="system-account-roles">
          <Form.Item
            name="roleIds"
            label={t('pages.fields.roles')}
            required
            rules={[{ required: true, type: 'array', min: 1, message: ADMIN_MSG.rolesRequired }]}
          >
            <Select mode="multiple" options={roleOptions} />
          </Form.Item>
        </Form>
      </AppDialog>

      <PasswordOnceDialog
        account={password?.account ?? ''}
        password={password?.password ?? null}
        onClose={() => setPassword(null)}
      />
    </section>
  );
}
