import { useState, type ReactNode } from 'react';
import { Badge, Button, Drawer, Grid, Layout, Menu, type MenuProps } from 'antd';
import {
  AppstoreOutlined,
  FileTextOutlined,
  MailOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SolutionOutlined,
} from '@ant-design/icons';
import { Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AccountLoading, AccountMenu, useParticipantAccount } from '../../components/AccountMenu';
import { Breadcrumb } from '../../components/Breadcrumb';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { NAMESPACES } from '../../i18n/namespaces';
import { Logo } from '../../components/Logo';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/a11y/SkipLink';
import { useRouteFocus } from '../../components/a11y/use-route-focus';
import { usePreference } from '../../lib/preferences';
import { useParticipantInfoGuard } from '../../lib/participant-info-guard';
import { useUserInfo, type ParticipantInfo } from '../../lib/session';
import { useMessageSummary } from './pages/message-api';
import { useDataDocName } from './data-doc-name';
import {
  PARTICIPANT_MENU,
  PARTICIPANT_PATHS,
  type ParticipantIcon,
  type ParticipantRouteMeta,
} from './routes';
import './participant-layout.css';

const ICONS: Record<ParticipantIcon, ReactNode> = {
  sign: <SolutionOutlined />,
  materials: <FileTextOutlined />,
  message: <MailOutlined />,
  module: <AppstoreOutlined />,
};

const TOP_LEVEL_PATHS = PARTICIPANT_MENU.map((item) => item.path);

/**
 * Whether the account may open a page: its role among the page's permissions, and the page's
 * code '*' or one of the account's permission codes. Until the info arrives everything shows,
 * so the menu does not flash empty (the server guards the data anyway).
 */
export function canOpen(meta: ParticipantRouteMeta, info: ParticipantInfo | undefined): boolean {
  if (!info) return true;
  if (!meta.permissions.includes(info.account.roleCode as ParticipantRouteMeta['permissions'][number])) return false;
  const codes = info.account.permissionCodeList ?? [];
  return meta.code === '*' || codes.includes('*') || codes.includes(meta.code);
}

function useCurrentMeta(): ParticipantRouteMeta | null {
  let found: ParticipantRouteMeta | null = null;
  for (const match of useMatches()) {
    const handle = match.handle as Partial<ParticipantRouteMeta> | undefined;
    if (handle?.defaultMenu) found = handle as ParticipantRouteMeta;
  }
  return found;
}

/** Participant centre (docs/rules/screens.md, "Participant centre"): top bar, left navigation, breadcrumb, content. */
export function ParticipantLayout() {
  const { t } = useTranslation('participant');
  const { t: tAny } = useTranslation(NAMESPACES);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [navVisible, setNavVisible] = usePreference('navVisible');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const screens = Grid.useBreakpoint();
  // Phones get the navigation in a drawer; the stored preference is about wide screens.
  const narrow = screens.md === false;
  const account = useParticipantAccount();
  const info = useUserInfo().data;
  const summary = useMessageSummary().data;
  const unread = typeof summary?.unreadCount === 'number' ? summary.unreadCount : 0;
  const current = useCurrentMeta();
  useParticipantInfoGuard();
  useRouteFocus();

  const moduleName = useDataDocName(info);
  const items: MenuProps['items'] = PARTICIPANT_MENU.filter((item) => canOpen(item.meta, info)).map((item) => {
    if (item.name === 'myMessage') {
      return {
        key: item.path,
        icon: (
          <Badge dot={info?.hasUnReadMessage === true} offset={[-2, 2]} data-testid="message-dot">
            {ICONS[item.meta.icon]}
          </Badge>
        ),
        label: (
          <span className="participant-layout__menu-label">
            {t('titles.myMessage')}
            <Badge count={unread} overflowCount={99} size="small" data-testid="message-badge" />
          </span>
        ),
      };
    }
    return {
      key: item.path,
      icon: ICONS[item.meta.icon],
      label: item.name === 'module' ? moduleName : tAny(item.meta.title),
    };
  });
  // Detail pages light up their parent entry (meta.defaultMenu).
  const selected = PARTICIPANT_MENU.find((item) => item.name === current?.defaultMenu)?.path;

  const menu = (
    <nav aria-label={t('navigation')} className="participant-layout__nav">
      <Menu
        mode="inline"
        selectedKeys={selected ? [selected] : []}
        items={items}
        aria-label={t('navigation')}
        onClick={({ key }) => {
          setDrawerOpen(false);
          void navigate(key);
        }}
      />
    </nav>
  );

  return (
    <Layout className="participant-layout">
      <SkipLink />
      <Layout.Header className="participant-layout__header">
        <Button
          type="text"
          aria-label={t('toggleNav')}
          aria-expanded={narrow ? drawerOpen : navVisible}
          icon={(narrow ? drawerOpen : navVisible) ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
          onClick={() => (narrow ? setDrawerOpen(!drawerOpen) : setNavVisible(!navVisible))}
        />
        <Logo className="participant-layout__logo" />
        <div className="participant-layout__actions">
          <LanguageSwitch size="small" />
          {account.status === 'signedIn' && <AccountMenu name={account.name} />}
          {account.status === 'loading' && <AccountLoading />}
        </div>
      </Layout.Header>
      <Layout className="participant-layout__body">
        {!narrow && navVisible && (
          <Layout.Sider className="participant-layout__sider" width={220} theme="light" data-testid="participant-nav">
            {menu}
          </Layout.Sider>
        )}
        <Layout.Content className="participant-layout__content" id={MAIN_CONTENT_ID} tabIndex={-1} data-route-focus-target="">
          <Breadcrumb
            className="participant-layout__breadcrumb"
            topLevelPaths={TOP_LEVEL_PATHS}
            label={pathname === PARTICIPANT_PATHS.module ? moduleName : undefined}
          />
          <Outlet />
        </Layout.Content>
      </Layout>
      {narrow && (
        <Drawer
          className="participant-layout__drawer"
          title={t('areaName')}
          placement="left"
          size={260}
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
        >
          {menu}
        </Drawer>
      )}
    </Layout>
  );
}
