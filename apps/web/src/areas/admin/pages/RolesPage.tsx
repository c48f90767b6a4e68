import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Form, Input, Space, Spin, Tag, Tooltip, Tree } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { DataNode } from 'antd/es/tree';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ADMIN_MSG, ROLE_CODE_PATTERN, type PermissionTreeNode, type RoleSummary } from '@contest/shared';
import { serverText } from '../../../components/admin-kit/refusal-text';
import { ApiError } from '../../../api';
import { DataTable, type KitColumn } from '../../../components/admin-kit/DataTable';
import { SideDrawer } from '../../../components/admin-kit/SideDrawer';
import { menuLabel } from '../../../components/admin-kit/console-menu';
import { Permission } from '../../../lib/permission';
import { usePreferences } from '../../../lib/preferences';
import { useStaffInfo, type StaffInfo, type StaffMenu } from '../../../lib/session';
import {
  ADMIN_QUERY_KEYS,
  createRole,
  deleteRole,
  fetchRole,
  fetchRoleTree,
  fetchRoles,
  updateRole,
} from '../admin-api';
import { showFieldError } from '../components/use-field-errors';
import { useFeedback } from '../../../components/feedback';

/** Button nodes share the tree with menu nodes; the prefix keeps their keys apart. */
export const BUTTON_KEY_PREFIX = 'btn:';

/**
 * What the signed-in admin may grant (docs/rules/admin.md, "Roles"): the menus and buttons it holds itself, as
 * tree keys; null for the super admin (everything). The server refuses anything beyond.
 */
export function grantableKeys(info: StaffInfo | undefined): Set<string> | null {
  if (!info || info.roleCode === 'SUPER_ADMIN') return null;
  const keys = new Set(info.buttons.map((b) => `${BUTTON_KEY_PREFIX}${b}`));
  const walk = (menus: readonly StaffMenu[]) =>
    menus.forEach((m) => {
      keys.add(m.code);
      walk(m.children);
    });
  walk(info.menus);
  return keys;
}

/** Tree nodes; those outside `grantable` (when given) are greyed out and cannot be ticked. */
export function toTreeData(nodes: readonly PermissionTreeNode[], locale: string, grantable: Set<string> | null = null): DataNode[] {
  const off = (key: string) => grantable !== null && !grantable.has(key);
  return nodes.map((node) => ({
    key: node.code,
    title: menuLabel(node, locale),
    disableCheckbox: off(node.code),
    children: [
      ...node.buttons.map((b) => {
        const key = `${BUTTON_KEY_PREFIX}${b.code}`;
        return { key, title: b.name, isLeaf: true, className: 'role-tree__button', disableCheckbox: off(key) };
      }),
      ...toTreeData(node.children, locale, grantable),
    ],
  }));
}

/** A 403 of the role calls (a role never raises its holder) gets no toast from the client: say it here. */
function isRoleRefusal(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 403;
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
  const me = useStaffInfo('ADMIN');
  const grantable = useMemo(() => grantableKeys(me.data), [me.data]);
  const treeData = useMemo(() => toTreeData(tree.data ?? [], locale, grantable), [tree.data, locale, grantable]);
  // A role holding more than the editor cannot be changed by it (the server says so too).
  const beyondOwn =
    grantable !== null && detail.data !== undefined && [...detail.data.menuCodes, ...detail.data.buttonCodes.map((c) => `${BUTTON_KEY_PREFIX}${c}`)].some((k) => !grantable.has(k));

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
      void message.success(serverText(id === 'new' ? ADMIN_MSG.created : ADMIN_MSG.saved));
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.roles });
      onDone();
    } catch (err) {
      if (isRoleRefusal(err)) void message.error(err.message);
      else showFieldError(form, err, ['code', 'name', 'description']);
    } finally {
      setSaving(false);
    }
  };

  if (tree.isPending || (id !== 'new' && detail.isPending)) return <Spin />;
  return (
    <Form form={form} layout="vertical" name="role" onFinish={(v) => void save(v)} data-testid="role-form">
      {beyondOwn && <Alert type="warning" showIcon title={t('pages.roles.beyondOwn')} style={{ marginBottom: 16 }} />}
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
      <Form.Item
        label={t('pages.roles.permissions')}
        extra={grantable === null ? t('pages.roles.permissionsHint') : `${t('pages.roles.permissionsHint')}${t('pages.roles.permissionsBeyondHint')}`}
      >
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
        <Button type="primary" htmlType="submit" loading={saving} disabled={beyondOwn}>
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
  // Roles the signed-in admin holds: never its own to edit or delete (docs/rules/admin.md, "Roles").
  const me = useStaffInfo('ADMIN');
  const ownRoleIds = useMemo(() => new Set((me.data?.roles ?? []).map((r) => r.id)), [me.data]);

  const remove = (role: RoleSummary) =>
    modal.confirm({
      title: t('pages.common.confirmTitle'),
      content: t('pages.roles.confirmDelete', { name: role.name }),
      okText: t('kit.ok'),
      cancelText: t('kit.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await deleteRole(role.id);
        } catch (err) {
          if (isRoleRefusal(err)) void message.error(err.message);
          throw err;
        }
        void message.success(serverText(ADMIN_MSG.deleted));
        void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.roles });
      },
    });

  const columns: KitColumn<RoleSummary>[] = [
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
    { title: t('pages.fields.updatedAt'), dataIndex: 'updatedAt', dateTime: true },
    {
      title: t('kit.actions'),
      key: 'actions',
      render: (_, row) => {
        if (row.builtin) return null;
        const own = ownRoleIds.has(row.id);
        const actions = (
          <Space size={0}>
            <Permission codes={['role:edit']}>
              <Button type="link" size="small" disabled={own} onClick={() => setEditing(row.id)}>
                {t('pages.common.edit')}
              </Button>
            </Permission>
            <Permission codes={['role:delete']}>
              <Button type="link" size="small" danger disabled={own || row.accountCount > 0} onClick={() => remove(row)}>
                {t('pages.common.delete')}
              </Button>
            </Permission>
          </Space>
        );
        return own ? (
          <Tooltip title={t('pages.roles.ownRole')}>
            <span data-testid="own-role-actions">{actions}</span>
          </Tooltip>
        ) : (
          actions
        );
      },
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
