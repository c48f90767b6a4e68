import { useCallback } from 'react';
import { Button, Dropdown, Spin, type MenuProps } from 'antd';
import { DownOutlined, LockOutlined, LogoutOutlined, UserOutlined, IdcardOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { logout, useToken, useUserInfo } from '../lib/session';

export const PERSONAL_CENTRE_PATH = '/my-sign';
export const CHANGE_PASSWORD_PATH = '/alert-password';

export type ParticipantAccountState =
  | { status: 'anonymous' }
  | { status: 'loading' }
  | { status: 'signedIn'; name: string };

/** Signed in means both a token and the user info (spec section 2's personal-centre menu). */
export function useParticipantAccount(): ParticipantAccountState {
  const token = useToken('USER');
  const info = useUserInfo();
  if (!token) return { status: 'anonymous' };
  if (info.data) return { status: 'signedIn', name: info.data.account.name };
  // A failed fetch shows the login buttons again; the guard decides about the token.
  if (info.isError) return { status: 'anonymous' };
  return { status: 'loading' };
}

export type AccountAction = 'centre' | 'changePassword' | 'logout';

/** The three entries of the personal-centre menu, for the dropdown and the mobile drawer alike. */
export function useAccountActions(): (action: AccountAction) => void {
  const navigate = useNavigate();
  return useCallback(
    (action: AccountAction) => {
      switch (action) {
        case 'centre':
          void navigate(PERSONAL_CENTRE_PATH);
          return;
        case 'changePassword':
          // A new tab, per spec; the token in localStorage signs that tab in too.
          window.open(CHANGE_PASSWORD_PATH, '_blank', 'noopener');
          return;
        case 'logout':
          // Local state goes at once; the server call finishes in the background.
          void logout('USER');
          void navigate('/');
          return;
      }
    },
    [navigate],
  );
}

/** Header account block when signed in: the account name opening the personal-centre menu. */
export function AccountMenu({ name }: { name: string }) {
  const { t } = useTranslation();
  const run = useAccountActions();
  const items: MenuProps['items'] = [
    { key: 'centre', icon: <IdcardOutlined />, label: t('auth.account.center') },
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
