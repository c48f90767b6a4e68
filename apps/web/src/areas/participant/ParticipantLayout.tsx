import { Breadcrumb, Button, Layout, Menu } from 'antd';
import {
  AppstoreOutlined,
  FileTextOutlined,
  MailOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SolutionOutlined,
} from '@ant-design/icons';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AccountLoading, AccountMenu, useParticipantAccount } from '../../components/AccountMenu';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { Logo } from '../../components/Logo';
import { usePreference } from '../../lib/preferences';
import { useRouteTitle } from '../../lib/route-handle';
import { useParticipantInfoGuard } from '../../lib/route-guards';
import { PARTICIPANT_PATHS } from './routes';
import './participant-layout.css';

/** Placeholder shell: top bar with the account menu, left navigation, breadcrumb, content (spec section 2). */
export function ParticipantLayout() {
  const { t } = useTranslation(['participant', 'common']);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const title = useRouteTitle();
  const [navVisible, setNavVisible] = usePreference('navVisible');
  const account = useParticipantAccount();
  useParticipantInfoGuard();

  const items = [
    { key: PARTICIPANT_PATHS.mySign, icon: <SolutionOutlined />, label: t('titles.mySign') },
    {
      key: PARTICIPANT_PATHS.materialSubmission,
      icon: <FileTextOutlined />,
      label: t('titles.materialSubmission'),
    },
    { key: PARTICIPANT_PATHS.myMessage, icon: <MailOutlined />, label: t('titles.myMessage') },
    { key: PARTICIPANT_PATHS.module, icon: <AppstoreOutlined />, label: t('titles.module') },
  ];
  // Detail pages highlight their parent menu entry.
  const selected = items.find((item) => pathname.startsWith(item.key))?.key;

  return (
    <Layout className="participant-layout">
      <Layout.Header className="participant-layout__header">
        <Button
          type="text"
          aria-label={t('toggleNav')}
          icon={navVisible ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
          onClick={() => setNavVisible(!navVisible)}
        />
        <Logo className="participant-layout__logo" />
        <LanguageSwitch size="small" />
        {account.status === 'signedIn' && <AccountMenu name={account.name} />}
        {account.status === 'loading' && <AccountLoading />}
      </Layout.Header>
      <Layout>
        {navVisible && (
          <Layout.Sider className="participant-layout__sider" width={220} theme="light">
            <Menu
              mode="inline"
              selectedKeys={selected ? [selected] : []}
              items={items}
              onClick={({ key }) => void navigate(key)}
            />
          </Layout.Sider>
        )}
        <Layout.Content className="participant-layout__content">
          <Breadcrumb
            className="participant-layout__breadcrumb"
            items={[{ title: t('areaName') }, ...(title ? [{ title }] : [])]}
          />
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
