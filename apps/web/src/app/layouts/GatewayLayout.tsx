import { lazy, Suspense, useState } from 'react';
import { PlainButton } from '../../components/plain-button/PlainButton';
import { MenuOutlined } from '@ant-design/icons';
import { NavLink, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { SITE_PATHS } from '../../areas/site/routes';
import { useAccountActions, useParticipantAccount } from '../../components/account';
import { AuthModalHost, preloadAuthModal } from '../../components/AuthModalHost';
import { Breadcrumb } from '../../components/Breadcrumb';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { Logo } from '../../components/Logo';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/a11y/SkipLink';
import { useRouteFocus } from '../../components/a11y/use-route-focus';
import { useOpenAuthModal } from '../../lib/auth-modal';
import { useContestName } from '../../lib/contest-name';
import { useParticipantInfoGuard } from '../../lib/participant-info-guard';
import { useRouteHandle } from '../../lib/route-handle';
import logoUrl from '../../assets/logo.svg';
import './gateway-layout.css';

// Fetched when needed, not with the home page: the account dropdown once signed in, the drawer
// when the narrow-screen menu opens.
const AccountMenu = lazy(async () => ({ default: (await import('../../components/AccountMenu')).AccountMenu }));
const AccountLoading = lazy(async () => ({ default: (await import('../../components/AccountMenu')).AccountLoading }));
const GatewayDrawer = lazy(async () => ({ default: (await import('./GatewayDrawer')).GatewayDrawer }));

/** Holds the account block's place while its chunk downloads. */
const ACCOUNT_FALLBACK = <span className="account-menu__loading" />;

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

/** The menu's paths: no back arrow in the breadcrumb there (docs/rules/screens.md, "Public site"). */
export const GATEWAY_TOP_LEVEL_PATHS: readonly string[] = GATEWAY_NAV.map((item) => item.to);

function navClass({ isActive }: { isActive: boolean }): string {
  return isActive ? 'gw-nav__link is-active' : 'gw-nav__link';
}

/** Shell of the public site: header with navigation, content, footer, login dialog. */
export function GatewayLayout() {
  const { t } = useTranslation();
  const { hideFooter = false, hideUserInfo = false } = useRouteHandle();
  const contestName = useContestName();
  const openAuthModal = useOpenAuthModal();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The drawer mounts on the first press and stays, so it can animate closed.
  const [drawerUsed, setDrawerUsed] = useState(false);
  const account = useParticipantAccount();
  const runAccountAction = useAccountActions();
  useParticipantInfoGuard();
  useRouteFocus();

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
      <SkipLink />
      <header className="gw-header">
        <div className="gw-topbar">
          <div className="gw-container gw-topbar__inner">
            <Logo className="gw-brand app-logo--wraps" />
            <div className="gw-topbar__actions">
              <LanguageSwitch size="small" />
              {!hideUserInfo && (
                <div className="gw-account" data-testid="gateway-account" data-status={account.status}>
                  {account.status === 'signedIn' ? (
                    <Suspense fallback={ACCOUNT_FALLBACK}>
                      <AccountMenu name={account.name} />
                    </Suspense>
                  ) : account.status === 'loading' ? (
                    <Suspense fallback={ACCOUNT_FALLBACK}>
                      <AccountLoading />
                    </Suspense>
                  ) : (
                    <>
                      <PlainButton
                        type="primary"
                        onClick={() => openAuth('login')}
                        onPointerEnter={preloadAuthModal}
                        onFocus={preloadAuthModal}
                      >
                        {t('actions.login')}
                      </PlainButton>
                      <PlainButton
                        onClick={() => openAuth('register')}
                        onPointerEnter={preloadAuthModal}
                        onFocus={preloadAuthModal}
                      >
                        {t('actions.register')}
                      </PlainButton>
                    </>
                  )}
                </div>
              )}
              <PlainButton
                className="gw-menu-button"
                type="text"
                icon={<MenuOutlined />}
                aria-label={t('nav.menu')}
                aria-expanded={drawerOpen}
                onClick={() => {
                  setDrawerUsed(true);
                  setDrawerOpen(true);
                }}
              />
            </div>
          </div>
        </div>
        <nav className="gw-nav" aria-label={t('nav.mainNavigation')}>
          <div className="gw-container gw-nav__inner">{links}</div>
        </nav>
      </header>

      <main className="gw-main" id={MAIN_CONTENT_ID} tabIndex={-1} data-route-focus-target="">
        <Breadcrumb className="gw-container gw-breadcrumb" topLevelPaths={GATEWAY_TOP_LEVEL_PATHS} />
        <Outlet />
      </main>

      {!hideFooter && (
        <footer className="gw-footer" data-testid="gateway-footer">
          <div className="gw-container gw-footer__inner">
            <img className="gw-footer__logo" src={logoUrl} alt="" width={40} height={40} />
            <div className="gw-footer__lines">
              <p className="gw-footer__name">{contestName}</p>
              <p>{t('footer.organiser', { contestName })}</p>
              <p>{t('footer.contact')}</p>
              <p>{t('footer.copyright', { contestName })}</p>
            </div>
          </div>
        </footer>
      )}

      {drawerUsed && (
        <Suspense fallback={null}>
          <GatewayDrawer
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            links={links}
            hideUserInfo={hideUserInfo}
            account={account}
            onAccountAction={(action) => {
              setDrawerOpen(false);
              runAccountAction(action);
            }}
            onAuth={openAuth}
          />
        </Suspense>
      )}

      <AuthModalHost />
    </div>
  );
}
