import { useTranslation } from 'react-i18next';
import { ConsoleLayout } from '../../components/admin-kit/ConsoleLayout';
import { ADMIN_PATHS } from './routes';
import './admin-pages.css';

/** The admin console (docs/rules/screens.md, "Consoles"): menus from the server, tabs, menu rules. */
export function AdminLayout() {
  const { t } = useTranslation('admin');
  return (
    <ConsoleLayout
      realm="ADMIN"
      areaName={t('areaName')}
      homePath={ADMIN_PATHS.home}
      homeCode="home"
      logoutLabel={t('account.logout')}
    />
  );
}
