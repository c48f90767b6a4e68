import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Grid, Layout, Menu, Result, type MenuProps } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { loginPathOf } from '../../api';
import { usePreference, usePreferences } from '../../lib/preferences';
import {
  STAFF_ACCOUNT_QUERY_KEY,
  clearAccountInfo,
  removeToken,
  useStaffInfo,
  type StaffInfo,
  type StaffMenu,
  type StaffRealm,
} from '../../lib/session';
import { LanguageSwitch } from '../LanguageSwitch';
import { Logo } from '../Logo';
import { MAIN_CONTENT_ID, SkipLink } from '../a11y/SkipLink';
import { useRouteFocus } from '../a11y/use-route-focus';
import { PageLoading } from '../PageLoading';
import { useConsoleHandle } from './console-handle';
import { findMenu, menuLabel, menuVerdict, type MenuVerdict } from './console-menu';
import { ConsoleAccount } from './ConsoleAccount';
import type { ConsoleOutletContext } from './ConsoleNotFound';
import { MenuIcon } from './MenuIcon';
import { OpenTabsBar } from './OpenTabsBar';
import { addTab, clearOpenTabs, setOpenTabs } from './open-tabs';
import { Watermark } from './Watermark';
import './console-layout.css';
import { useFeedback } from '../feedback';

export interface ConsoleLayoutProps {
  realm: StaffRealm;
  /** Shown next to the logo. */
  areaName: string;
  /** The logo's target and where "close all tabs" lands. */
  homePath: string;
  /** Menu code of the home page: when it is not granted the first granted entry opens instead. */
  homeCode?: string;
  logoutLabel: string;
  /**
   * Apply the menu rules (docs/rules/screens.md, "Consoles": pages need their code in the menus). The expert
   * console's routes carry codes only to highlight the menu: an expert who has not agreed yet
   * must reach the agreement on the home page, not a 404, so it only draws the menu.
   */
  enforceMenus?: boolean;
}

/** Experts (first role EXPERT) get the watermark (docs/rules/screens.md, "Consoles"). */
export function isExpertAccount(info: Pick<StaffInfo, 'roles' | 'roleCode'>): boolean {
  return (info.roles[0]?.code ?? info.roleCode) === 'EXPERT';
}

function toMenuItems(menus: readonly StaffMenu[], locale: string, depth = 0): MenuProps['items'] {
  return menus.map((menu) => {
    const label = menuLabel(menu, locale);
    const icon = depth === 0 ? <MenuIcon name={menu.icon} /> : undefined;
    if (menu.children?.length) {
      return { key: menu.code, icon, label, children: toMenuItems(menu.children, locale, depth + 1) };
    }
    return { key: menu.code, icon, label: <span data-menu-code={menu.code}>{label}</span> };
  });
}

function selectedCodeOf(
  menus: readonly StaffMenu[],
  handle: { code?: string | undefined; activeMenu?: string | undefined },
  pathname: string,
): string | null {
  if (handle.activeMenu) return handle.activeMenu;
  if (handle.code) return handle.code;
  // Routes without a code (the expert console) match by path.
  const byPath = (items: readonly StaffMenu[]): string | null => {
    for (const item of items) {
      if (item.path === pathname) return item.code;
      const inner = byPath(item.children ?? []);
      if (inner) return inner;
    }
    return null;
  };
  return byPath(menus);
}

function ConsoleMenu({ menus, collapsed }: { menus: readonly StaffMenu[]; collapsed: boolean }) {
  const { t } = useTranslation('admin');
  const { locale } = usePreferences();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const handle = useConsoleHandle();
  const selected = selectedCodeOf(menus, handle, pathname);
  const parents = useMemo(() => (selected ? (findMenu(menus, selected)?.parents ?? []) : []), [menus, selected]);
  const [openKeys, setOpenKeys] = useState<string[]>(parents);

  // Arriving at a page (a tab, a link) opens its group without closing the ones the user opened.
  useEffect(() => {
    setOpenKeys((keys) => Array.from(new Set([...keys, ...parents])));
  }, [parents]);

  const items = useMemo(() => toMenuItems(menus, locale), [menus, locale]);
  return (
    <nav aria-label={t('console.mainMenu')} className="console-layout__nav">
      <Menu
        mode="inline"
        aria-label={t('console.mainMenu')}
        data-testid="console-menu"
        inlineCollapsed={collapsed}
        items={items}
        selectedKeys={selected ? [selected] : []}
        {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
        onClick={({ key }) => {
          const path = findMenu(menus, String(key))?.menu.path;
          if (path) void navigate(path);
        }}
      />
    </nav>
  );
}

/** Runs the side effects of a verdict: the tab of an allowed page, the logout of an account without menus. */
function useVerdictEffects(realm: StaffRealm, verdict: MenuVerdict | null): void {
  const { t } = useTranslation('admin');
  const { message } = useFeedback();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const { title } = useConsoleHandle();
  const loggedOut = useRef(false);

  useEffect(() => {
    if (verdict?.kind !== 'allow' || !title) return;
    setOpenTabs(realm, (list) => addTab(list, { path: pathname + search, title }));
  }, [realm, verdict?.kind, title, pathname, search]);

  useEffect(() => {
    if (verdict?.kind !== 'noMenus' || loggedOut.current) return;
    loggedOut.current = true;
    void message.warning(t('console.noPermission'));
    removeToken(realm);
    clearOpenTabs(realm);
    clearAccountInfo(realm);
    void navigate(loginPathOf(realm), { replace: true });
  }, [verdict?.kind, realm, message, navigate, t]);
}

/**
 * The admin (and expert) console around every page (docs/rules/screens.md, "Consoles"): header with logo,
 * account name and logout; a collapsible menu from the server's menus; the tab bar of open
 * pages; the menu rules; the expert watermark.
 */
export function ConsoleLayout({
  realm,
  areaName,
  homePath,
  homeCode = 'home',
  logoutLabel,
  enforceMenus = true,
}: ConsoleLayoutProps) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const [navPreference, setNavPreference] = usePreference('navVisible');
  // Below md (phones) a 220 px menu beside the page leaves it no room: the menu hides and
  // opens over the page instead, closing again once a page is chosen.
  const narrow = Grid.useBreakpoint().md === false;
  const [narrowNavOpen, setNarrowNavOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setNarrowNavOpen(false), [pathname]);
  const navVisible = narrow ? narrowNavOpen : navPreference;
  const setNavVisible = narrow ? setNarrowNavOpen : setNavPreference;
  const handle = useConsoleHandle();
  const info = useStaffInfo(realm);
  const [refreshKey, setRefreshKey] = useState(0);

  const verdict: MenuVerdict | null = !info.data
    ? null
    : enforceMenus
      ? menuVerdict(info.data.menus, handle, homeCode)
      : { kind: 'allow' };
  useVerdictEffects(realm, verdict);
  useRouteFocus();

  const refresh = () => {
    // The page remounts and its data is fetched again; the account itself stays cached.
    void queryClient.invalidateQueries({
      predicate: (query) => query.queryKey[0] !== STAFF_ACCOUNT_QUERY_KEY[0],
    });
    setRefreshKey((key) => key + 1);
  };

  let body;
  if (info.isError) {
    body = (
      <Result
        status="warning"
        title={t('console.loadFailed')}
        extra={<Button onClick={() => void info.refetch()}>{t('console.retry')}</Button>}
      />
    );
  } else if (!verdict) {
    body = <PageLoading />;
  } else if (verdict.kind === 'redirect') {
    body = <Navigate to={verdict.to} replace />;
  } else if (verdict.kind === 'noMenus') {
    body = null;
  } else {
    body = <Outlet context={{ realm, homePath } satisfies ConsoleOutletContext} />;
  }

  return (
    <Layout className="console-layout" data-testid={`${realm.toLowerCase()}-console`}>
      <SkipLink />
      <Layout.Header className="console-layout__header">
        <Button
          type="text"
          aria-label={t('console.toggleNav')}
          aria-expanded={navVisible}
          data-testid="console-nav-toggle"
          icon={navVisible ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
          onClick={() => setNavVisible(!navVisible)}
        />
        <Logo to={homePath} name={areaName} className="console-layout__logo" />
        <LanguageSwitch size="small" />
        <ConsoleAccount realm={realm} logoutLabel={logoutLabel} />
      </Layout.Header>
      <Layout className="console-layout__main">
        <Layout.Sider
          className={narrow ? 'console-layout__sider console-layout__sider--overlay' : 'console-layout__sider'}
          theme="light"
          width={220}
          collapsedWidth={narrow ? 0 : 64}
          collapsed={!navVisible}
          trigger={null}
        >
          {/* A hidden phone menu is not rendered: nothing to tab into behind the page. */}
          {info.data && (navVisible || !narrow) && <ConsoleMenu menus={info.data.menus} collapsed={!navVisible} />}
        </Layout.Sider>
        {narrow && navVisible && <div className="console-layout__scrim" aria-hidden="true" onClick={() => setNavVisible(false)} />}
        <Layout.Content className="console-layout__content" id={MAIN_CONTENT_ID} tabIndex={-1} data-route-focus-target="">
          <OpenTabsBar realm={realm} homePath={homePath} onRefresh={refresh} />
          <div className="console-layout__page" key={refreshKey} data-testid="console-page">
            {body}
          </div>
        </Layout.Content>
      </Layout>
      {info.data && isExpertAccount(info.data) && (
        <Watermark code={info.data.code} account={info.data.account} />
      )}
    </Layout>
  );
}
