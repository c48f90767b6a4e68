import { Layout } from 'antd';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { Logo } from '../../components/Logo';
import { StaffAccount } from '../../components/StaffAccount';
import { EXPERT_PATHS } from './routes';
import './expert-layout.css';

/** Placeholder shell with the account block; the menu and tab bar arrive with the review features. */
export function ExpertLayout() {
  const { t } = useTranslation('expert');
  return (
    <Layout className="expert-layout">
      <Layout.Header className="expert-layout__header">
        <Logo to={EXPERT_PATHS.home} name={t('areaName')} className="expert-layout__logo" />
        <LanguageSwitch size="small" />
        <StaffAccount realm="EXPERT" logoutLabel={t('account.logout')} />
      </Layout.Header>
      <Layout.Content className="expert-layout__content">
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
