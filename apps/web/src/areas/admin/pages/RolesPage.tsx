import { useEffect, useMemo, useState } from 'react';
import { Button, Form, Input, Space, Spin, Tag, Tree } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import type { DataNode } from 'antd/es/tree';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ADMIN_MSG, ROLE_CODE_PATTERN, type PermissionTreeNode, type RoleSummary } from '@contest/shared';
import { DataTable } from '../../../components/admin-kit/DataTable';
import { SideDrawer } from '../../../components/admin-kit/SideDrawer';
import { menuLabel } from '../../../components/admin-kit/console-menu';
import { Permission } from '../../../lib/permission';
import { usePreferences } from '../../../lib/preferences';
import {
  ADMIN_QUERY_KEYS,
  createRole,
  deleteRole,
  fetchRole,
  fetchRoleTree,
  fetchRoles,
  formatDateTime,
  updateRole,
} from '../admin-api';
import { showFieldError } from '../components/use-field-errors';
import { useFeedback } from '../../../components/feedback';

/** Button nodes share the tree with menu nodes; the prefix keeps their keys apart. */
export const BUTTON_KEY_PREFIX = 'btn:';

export function toTreeData(nodes: readonly PermissionTreeNode[], locale: string): DataNode[] {
  return nodes.map((node) => ({
    key: node.code,
    title: menuLabel(node, locale),
    children: [
      ...node.buttons.map((b) => ({ key: `${BUTTON_KEY_PREFIX}${b.code}`, title: b.name, isLeaf: true, className: 'role-tree__button' })),
      ...toTreeData(node.children, locale),
    ],
  }));
}

/** Checked tree keys → the role's menu and button codes. */
export function splitCheckedKeys(keys: readonly string[]): { menuCodes: string[]; buttonCodes: string[] } {
  const menuCodes: string[] = [];
  const buttonCodes: string[] = [];
  for (const key of keys) {
    if (key.startsWith(BUTTON_KEY_PREFIX)) buttonCodes.push(key.slice(BUTTON_KEY_PREFIX.length));
    else menuCodes.push(key);
  }
  return { menuCodes, buttonCodes };
}

interface RoleValues {
  code?: string;
  name: string;
  description?: string;
}

function RoleEditor({ id, onDone }: { id: string | 'new'; onDone(): void }) {
  const { t } = useTranslation('admin');
  const { message } = useFeedback();
  const { locale } = usePreferences();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<RoleValues>();
  const tree = useQuery({ queryKey: ADMIN_QUERY_KEYS.roleTree, queryFn: fetchRoleTree });
  const detail = useQuery({ queryKey: ADMIN_QUERY_KEYS.role(String(id)), queryFn: () => fetchRole(String(id)), enabled: id !== 'new' });
  const [checked, setChecked] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const treeData = useMemo(() => toTreeData(tree.data ?? [], locale), [tree.data, locale]);

  useEffect(() => {
    if (!detail.data) return;
    form.setFieldsValue({ name: detail.data.name, description: detail.data.description ?? '' });
    setChecked([...detail.data.menuCodes, ...detail.data.buttonCodes.map((c) => `${BUTTON_KEY_PREFIX}${c}`)]);
  }, [detail.data, form]);

  const save = async (values: RoleValues) => {
    setSaving(true);
    const body = { ...values, ...splitCheckedKeys(checked) };
    try {
      if (id === 'new') await createRole(body);
      else {
        const { code: _code, ...rest } = body;
        await updateRole(id, rest);
      }
      void message.success(id === 'new' ? ADMIN_MSG.created : ADMIN_MSG.saved);
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.roles });
      onDone();
    } catch (err) {
      showFieldError(form, err, ['code', 'name', 'description']);
    } finally {
      setSaving(false);
    }
  };

  if (tree.isPending || (id !== 'new' && detail.isPending)) return <Spin />;
  return (
    <Form form={form} layout="vertical" name="role" onFinish={(v) => void save(v)} data-testid="role-form">
      {id === 'new' && (
        <Form.Item
          name="code"
          label={t('pages.roles.code')}
          required
          rules={[
            { required: true, whitespace: true, message: ADMIN_MSG.roleCodeRequired },
            { pattern: ROLE_CODE_PATTERN, message: ADMIN_MSG.roleCodeFormat },
          ]}
        >
          <Input placeholder="OPERATOR" />
        </Form.Item>
      )}
      <Form.Item
        name="name"
        label={t('pages.roles.name')}
        required
        rules={[{ required: true, whitespace: true, message: ADMIN_MSG.roleNameRequired }, { max: 30, message: ADMIN_MSG.roleNameTooLong }]}
      >
        <Input />
      </Form.Item>
      <Form.Item name="description" label={t('pages.roles.description')} rules={[{ max: 200, message: ADMIN_MSG.roleDescriptionTooLong }]}>
        <Input.TextArea rows={2} />
      </Form.Item>
      <Form.Item label={t('pages.roles.permissions')} extra={t('pages.roles.permissionsHint')}>
        {/* checkStrictly: a menu may be granted without all of its buttons, which a cascading tree cannot express. */}
        <Tree
          checkable
          checkStrictly
          defaultExpandAll
          selectable={false}
          treeData={treeData}
          checkedKeys={checked}
          onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(String))}
        />
      </Form.Item>
      <Space>
        <Button onClick={onDone}>{t('kit.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('kit.ok')}
        </Button>
      </Space>
    </Form>
  );
}

/** 角色管理 (/admin/system/roleManage): list, create and edit with the menu + button tree, delete. */
export function RolesPage() {
  const { t } = useTranslation('admin');
  const { message, modal } = useFeedback();
  const queryClient = useQueryClient();
  const roles = useQuery({ queryKey: ADMIN_QUERY_KEYS.roles, queryFn: fetchRoles });
  const [editing, setEditing] = useState<string | 'new' | null>(null);

  const remove = (role: RoleSummary) =>
    modal.confirm({
      title: t('pages.common.confirmTitle'),
      content: t('pages.roles.confirmDelete', { name: role.name }),
      okText: t('kit.ok'),
      cancelText: t('kit.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await deleteRole(role.id);
        void message.success(ADMIN_MSG.deleted);
        void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.roles });
      },
    });

  const columns: ColumnsType<RoleSummary> = [
    { title: t('pages.roles.code'), dataIndex: 'code' },
    {
      title: t('pages.roles.name'),
      dataIndex: 'name',
      render: (_, row) => (
        <>
          {row.name} {row.builtin && <Tag>{t('pages.roles.builtin')}</Tag>}
        </>
      ),
    },
    { title: t('pages.roles.description'), dataIndex: 'description' },
    { title: t('pages.roles.accountCount'), dataIndex: 'accountCount' },
    { title: t('pages.fields.updatedAt'), dataIndex: 'updatedAt', render: (v: string) => formatDateTime(v) },
    {
      title: t('kit.actions'),
      key: 'actions',
      render: (_, row) =>
        row.builtin ? null : (
          <Space size={0}>
            <Permission codes={['role:edit']}>
              <Button type="link" size="small" onClick={() => setEditing(row.id)}>
                {t('pages.common.edit')}
              </Button>
            </Permission>
            <Permission codes={['role:delete']}>
              <Button type="link" size="small" danger disabled={row.accountCount > 0} onClick={() => remove(row)}>
                {t('pages.common.delete')}
              </Button>
            </Permission>
          </Space>
        ),
    },
  ];

  return (
    <section className="admin-page" data-testid="roles-page">
      <h1 className="admin-page__title">{t('titles.roleManage')}</h1>
      <div className="kit-toolbar">
        <Permission codes={['role:edit']}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('pages.roles.create')}
          </Button>
        </Permission>
      </div>
      <DataTable<RoleSummary> rowKey="id" columns={columns} dataSource={roles.data ?? []} loading={roles.isFetching} />
      <SideDrawer
        open={editing !== null}
        title={editing === 'new' ? t('pages.roles.create') : t('pages.roles.edit')}
        onClose={() => setEditing(null)}
      >
        {editing && <RoleEditor id={editing} onDone={() => setEditing(null)} />}
      </SideDrawer>
    </section>
  );
}
