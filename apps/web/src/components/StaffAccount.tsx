import { Button, Dropdown, type MenuProps } from 'antd';
import { DownOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loginPathOf } from '../api';
import { logout, useStaffInfo, type StaffRealm } from '../lib/session';
import { AccountLoading } from './AccountMenu';

/** Admin / expert header block: the account name with a logout entry (docs/rules/screens.md, "Consoles"). */
export function StaffAccount({ realm, logoutLabel }: { realm: StaffRealm; logoutLabel: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, isPending } = useStaffInfo(realm);
  if (isPending) return <AccountLoading />;
  const name = data ? data.name || data.account : t('auth.fields.username');
  const items: MenuProps['items'] = [
    { key: 'logout', icon: <LogoutOutlined />, label: logoutLabel, danger: true },
  ];
  return (
    <Dropdown
      trigger={['click', 'hover']}
      placement="bottomRight"
      menu={{
        items,
        onClick: () => {
          void logout(realm);
          void navigate(loginPathOf(realm), { replace: true });
        },
      }}
    >
      <Button type="text" className="account-menu" data-testid="staff-account">
        <UserOutlined />
        <span className="account-menu__name">{name}</span>
        <DownOutlined className="account-menu__caret" />
      </Button>
    </Dropdown>
  );
}
