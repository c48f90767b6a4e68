import { Layout } from 'antd';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { Logo } from '../../components/Logo';
import { StaffAccount } from '../../components/StaffAccount';
import { ADMIN_PATHS } from './routes';
import './admin-layout.css';

/** Placeholder shell with the account block; the menu and tab bar arrive with the admin features. */
export function AdminLayout() {
  const { t } = useTranslation('admin');
  return (
    <Layout className="admin-layout">
      <Layout.Header className="admin-layout__header">
        <Logo to={ADMIN_PATHS.home} name={t('areaName')} className="admin-layout__logo" />
        <LanguageSwitch size="small" />
        <StaffAccount realm="ADMIN" logoutLabel={t('account.logout')} />
      </Layout.Header>
      <Layout.Content className="admin-layout__content">
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
