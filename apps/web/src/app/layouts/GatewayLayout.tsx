import { useState } from 'react';
import { Button, Drawer } from 'antd';
import { MenuOutlined, UserOutlined } from '@ant-design/icons';
import { NavLink, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { SITE_PATHS } from '../../areas/site/routes';
import {
  AccountLoading,
  AccountMenu,
  useAccountActions,
  useParticipantAccount,
} from '../../components/AccountMenu';
import { AuthModal } from '../../components/AuthModal';
import { Breadcrumb } from '../../components/Breadcrumb';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { Logo } from '../../components/Logo';
import { useOpenAuthModal } from '../../lib/auth-modal';
import { useParticipantInfoGuard } from '../../lib/route-guards';
import { useRouteHandle } from '../../lib/route-handle';
import logoUrl from '../../assets/logo.svg';
import './gateway-layout.css';

export interface GatewayNavItem {
  to: string;
  label: ParseKeys<'common'>;
}

/** Public navigation, in display order. */
export const GATEWAY_NAV: readonly GatewayNavItem[] = [
  { to: SITE_PATHS.home, label: 'nav.home' },
  { to: SITE_PATHS.medicalInsurance, label: 'nav.medicalInsurance' },
  { to: SITE_PATHS.contestDynamic, label: 'nav.contestDynamic' },
  { to: SITE_PATHS.signGuide, label: 'nav.signGuide' },
  { to: SITE_PATHS.signUp, label: 'nav.signUp' },
  { to: SITE_PATHS.materialsSubmit, label: 'nav.materialsSubmit' },
];

/** The menu's paths: no back arrow in the breadcrumb there (spec section 2). */
export const GATEWAY_TOP_LEVEL_PATHS: readonly string[] = GATEWAY_NAV.map((item) => item.to);

function navClass({ isActive }: { isActive: boolean }): string {
  return isActive ? 'gw-nav__link is-active' : 'gw-nav__link';
}

/** Shell of the public site: header with navigation, content, footer, login dialog. */
export function GatewayLayout() {
  const { t } = useTranslation();
  const { hideFooter = false, hideUserInfo = false } = useRouteHandle();
  const openAuthModal = useOpenAuthModal();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const account = useParticipantAccount();
  const runAccountAction = useAccountActions();
  useParticipantInfoGuard();

  const openAuth = (type: 'login' | 'register') => {
    setDrawerOpen(false);
    openAuthModal(type);
  };

  const links = GATEWAY_NAV.map((item) => (
    <NavLink
      key={item.to}
      to={item.to}
      end={item.to === '/'}
      className={navClass}
      onClick={() => setDrawerOpen(false)}
    >
      {t(item.label)}
    </NavLink>
  ));

  return (
    <div className="gateway">
      <header className="gw-header">
        <div className="gw-topbar">
          <div className="gw-container gw-topbar__inner">
            <Logo className="gw-brand" />
            <div className="gw-topbar__actions">
              <LanguageSwitch size="small" />
              {!hideUserInfo && (
                <div className="gw-account" data-testid="gateway-account" data-status={account.status}>
                  {account.status === 'signedIn' ? (
                    <AccountMenu name={account.name} />
                  ) : account.status === 'loading' ? (
                    <AccountLoading />
                  ) : (
                    <>
                      <Button type="primary" onClick={() => openAuth('login')}>
                        {t('actions.login')}
                      </Button>
                      <Button onClick={() => openAuth('register')}>{t('actions.register')}</Button>
                    </>
                  )}
                </div>
              )}
              <Button
                className="gw-menu-button"
                type="text"
                icon={<MenuOutlined />}
                aria-label={t('nav.menu')}
                aria-expanded={drawerOpen}
                onClick={() => setDrawerOpen(true)}
              />
            </div>
          </div>
        </div>
        <nav className="gw-nav" aria-label={t('nav.mainNavigation')}>
          <div className="gw-container gw-nav__inner">{links}</div>
        </nav>
      </header>

      <main className="gw-main">
        <Breadcrumb className="gw-container gw-breadcrumb" topLevelPaths={GATEWAY_TOP_LEVEL_PATHS} />
        <Outlet />
      </main>

      {!hideFooter && (
        <footer className="gw-footer" data-testid="gateway-footer">
          <div className="gw-container gw-footer__inner">
            <img className="gw-footer__logo" src={logoUrl} alt="" width={40} height={40} />
            <div className="gw-footer__lines">
              <p className="gw-footer__name">{t('appName')}</p>
              <p>{t('footer.organiser')}</p>
              <p>{t('footer.contact')}</p>
              <p>{t('footer.copyright')}</p>
            </div>
          </div>
        </footer>
      )}

      <Drawer
        className="gw-drawer"
        title={t('nav.menu')}
        placement="right"
        size={280}
        open={drawerOpen}
        onClose={() => setDrawerOpen(false)}
      >
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
                ['changePassword', 'auth.account.changePassword'],
                ['logout', 'auth.account.logout'],
              ] as const
            ).map(([action, label]) => (
              <Button
                key={action}
                block
                danger={action === 'logout'}
                onClick={() => {
                  setDrawerOpen(false);
                  runAccountAction(action);
                }}
              >
                {t(label)}
              </Button>
            ))}
          </div>
        )}
        {!hideUserInfo && account.status === 'anonymous' && (
          <div className="gw-drawer__account">
            <Button type="primary" block onClick={() => openAuth('login')}>
              {t('actions.login')}
            </Button>
            <Button block onClick={() => openAuth('register')}>
              {t('actions.register')}
            </Button>
          </div>
        )}
      </Drawer>

      <AuthModal />
    </div>
  );
}
