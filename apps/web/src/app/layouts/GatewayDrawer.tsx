import type { ReactNode } from 'react';
import { Button, Drawer } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AccountAction, ParticipantAccountState } from '../../components/account';

export interface GatewayDrawerProps {
  open: boolean;
  onClose: () => void;
  /** The navigation links, the same as the header's. */
  links: ReactNode;
  hideUserInfo: boolean;
  account: ParticipantAccountState;
  onAccountAction: (action: AccountAction) => void;
  onAuth: (type: 'login' | 'register') => void;
}

/**
 * The narrow-screen menu of the gateway layout. Its own chunk, fetched the first time the menu
 * button is pressed: antd's Drawer is not needed on a wide screen, nor before that press.
 */
export function GatewayDrawer({ open, onClose, links, hideUserInfo, account, onAccountAction, onAuth }: GatewayDrawerProps) {
  const { t } = useTranslation();
  return (
    <Drawer className="gw-drawer" title={t('nav.menu')} placement="right" size={280} open={open} onClose={onClose}>
      <nav className="gw-drawer__nav" aria-label={t('nav.mainNavigation')}>
        {links}
      </nav>
      {!hideUserInfo && account.status === 'signedIn' && (
        <div className="gw-drawer__account" data-testid="drawer-account">
          <p className="gw-drawer__account-name">
            <UserOutlined /> {account.name}
          </p>
          {(
            [
              ['centre', 'auth.account.center'],
              ['myData', 'auth.account.myData'],
              ['changePassword', 'auth.account.changePassword'],
              ['logout', 'auth.account.logout'],
            ] as const
          ).map(([action, label]) => (
            <Button key={action} block danger={action === 'logout'} onClick={() => onAccountAction(action)}>
              {t(label)}
            </Button>
          ))}
        </div>
      )}
      {!hideUserInfo && account.status === 'anonymous' && (
        <div className="gw-drawer__account">
          <Button type="primary" block onClick={() => onAuth('login')}>
            {t('actions.login')}
          </Button>
          <Button block onClick={() => onAuth('register')}>
            {t('actions.register')}
          </Button>
        </div>
      )}
    </Drawer>
  );
}
