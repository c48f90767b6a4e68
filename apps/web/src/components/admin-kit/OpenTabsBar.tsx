import { Button, Space, Tabs, Tooltip } from 'antd';
import { CloseCircleOutlined, CloseSquareOutlined, ReloadOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NAMESPACES } from '../../i18n/namespaces';
import type { StaffRealm } from '../../lib/session';
import { neighbourOf, removeTab, setOpenTabs, tabKey, useOpenTabs } from './open-tabs';

export interface OpenTabsBarProps {
  realm: StaffRealm;
  homePath: string;
  onRefresh(): void;
}

/**
 * The breadcrumb tab bar of the consoles (docs/rules/screens.md, "Consoles"): bordered cards of the open pages
 * with close other tabs, close all tabs and refresh current tab.
 */
/** Where the record's name goes in the tab's text (a character no translation contains). */
const NAME_MARK = '\u0001';

/**
 * A tab's title with the record's name (a project's, as entered by its team) marked as content,
 * not interface text: on English pages it stays as written (docs/decisions.md, "English").
 */
function NamedTab({ text, name }: { text: string; name: string }) {
  const [before = '', after = ''] = text.split(NAME_MARK);
  return (
    <>
      {before}
      <span data-user-content="">{name}</span>
      {after}
    </>
  );
}

export function OpenTabsBar({ realm, homePath, onRefresh }: OpenTabsBarProps) {
  const { t } = useTranslation(NAMESPACES);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tabs = useOpenTabs(realm);

  const closeOthers = () => setOpenTabs(realm, (list) => list.filter((tab) => tabKey(tab.path) === pathname));

  // The layout adds a tab when the page changes; closing the tab of the page that stays
  // open must therefore keep that tab rather than leave the bar empty.
  const close = (key: string) => {
    if (key !== pathname) {
      setOpenTabs(realm, (list) => removeTab(list, key));
      return;
    }
    const next = neighbourOf(tabs, key);
    if (!next) return;
    setOpenTabs(realm, (list) => removeTab(list, key));
    void navigate(next.path);
  };

  const closeAll = () => {
    if (pathname === tabKey(homePath)) {
      closeOthers();
      return;
    }
    setOpenTabs(realm, () => []);
    void navigate(homePath);
  };

  const actions = [
    { key: 'refresh', label: t('admin:console.refreshTab'), icon: <ReloadOutlined />, run: onRefresh },
    { key: 'close-others', label: t('admin:console.closeOtherTabs'), icon: <CloseCircleOutlined />, run: closeOthers },
    { key: 'close-all', label: t('admin:console.closeAllTabs'), icon: <CloseSquareOutlined />, run: closeAll },
  ];

  return (
    <nav className="console-tabs" aria-label={t('admin:console.openTabs')} data-testid="console-tabs">
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        activeKey={pathname}
        onChange={(key) => {
          const tab = tabs.find((item) => tabKey(item.path) === key);
          if (tab) void navigate(tab.path);
        }}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') close(key);
        }}
        items={tabs.map((tab) => ({
          key: tabKey(tab.path),
          label: (
            <span data-tab-path={tabKey(tab.path)}>
              {tab.name ? <NamedTab text={t('admin:console.namedTab', { title: t(tab.title as never), name: NAME_MARK })} name={tab.name} /> : t(tab.title as never)}
            </span>
          ),
          closable: tabs.length > 1,
        }))}
      />
      {/* Beside the tabs, not in antd's tabBarExtraContent: that sits inside role=tablist, where
          only tabs may be (axe: aria-required-children). */}
      <Space size={2} className="console-tabs__actions">
        {actions.map((action) => (
          <Tooltip key={action.key} title={action.label}>
            <Button type="text" size="small" icon={action.icon} aria-label={action.label} data-testid={`tabs-${action.key}`} onClick={action.run} />
          </Tooltip>
        ))}
      </Space>
    </nav>
  );
}
