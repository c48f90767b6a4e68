import { useTranslation } from 'react-i18next';
import { ConsoleLayout } from '../../components/admin-kit/ConsoleLayout';
import { describeRefusal } from '../../components/admin-kit/refusal-text';
import { onDescribeRefusal } from '../../lib/api';
import { ADMIN_PATHS } from './routes';
import './admin-pages.css';

// The console's refusal toasts in the page's language, from the first call the area makes.
onDescribeRefusal(describeRefusal);

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
