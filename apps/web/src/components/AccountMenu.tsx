import { Button, Dropdown, Spin, type MenuProps } from 'antd';
import { DownOutlined, LockOutlined, LogoutOutlined, UserOutlined, IdcardOutlined, SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAccountActions, type AccountAction } from './account';

export {
  CHANGE_PASSWORD_PATH,
  PERSONAL_CENTRE_PATH,
  useAccountActions,
  useParticipantAccount,
  type AccountAction,
  type ParticipantAccountState,
} from './account';

/** Header account block when signed in: the account name opening the personal-centre menu. */
export function AccountMenu({ name }: { name: string }) {
  const { t } = useTranslation();
  const run = useAccountActions();
  const items: MenuProps['items'] = [
    { key: 'centre', icon: <IdcardOutlined />, label: t('auth.account.center') },
    { key: 'myData', icon: <SafetyOutlined />, label: t('auth.account.myData') },
    { key: 'changePassword', icon: <LockOutlined />, label: t('auth.account.changePassword') },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('auth.account.logout'), danger: true },
  ];
  return (
    <Dropdown
      trigger={['click', 'hover']}
      placement="bottomRight"
      menu={{ items, onClick: ({ key }) => run(key as AccountAction) }}
    >
      <Button type="text" className="account-menu" data-testid="account-menu">
        <UserOutlined />
        <span className="account-menu__name">{name}</span>
        <DownOutlined className="account-menu__caret" />
      </Button>
    </Dropdown>
  );
}

/** Placeholder while the user info loads, the size of the account button. */
export function AccountLoading() {
  return <Spin size="small" className="account-menu__loading" />;
}
