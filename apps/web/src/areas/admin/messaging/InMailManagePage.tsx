import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { KitTabs } from '../../../components/admin-kit';
import { BatchList } from './BatchList';
import { TemplatesTab } from './TemplatesTab';
import './messaging.css';

const TABS = ['insite', 'email', 'templates'] as const;
type TabKey = (typeof TABS)[number];

const tabOf = (value: string | null): TabKey => (TABS as readonly string[]).includes(value ?? '') ? (value as TabKey) : 'insite';

/**
 * 站内信管理 (/admin/information/InMailManage), three tabs kept in the URL (?tab=): in-site
 * messages to a segment of participants (read counts, progress, 撤回 of a message sent by
 * mistake), bulk email (one record per address with the server's answer), and the message
 * templates of every channel.
 */
export function InMailManagePage() {
  const { t } = useTranslation('messaging');
  const { t: ta } = useTranslation('admin');
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));

  return (
    <section className="admin-page" data-testid="inmail-page">
      <h1 className="admin-page__title">{ta('titles.inMailManage')}</h1>
      <KitTabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'insite' ? {} : { tab: key }, { replace: true })}
        items={[
          { key: 'insite', txtMes: t('tabs.insite'), component: tab === 'insite' ? <BatchList channel="INSITE" /> : null },
          { key: 'email', txtMes: t('tabs.email'), component: tab === 'email' ? <BatchList channel="EMAIL" /> : null },
          { key: 'templates', txtMes: t('tabs.allTemplates'), component: tab === 'templates' ? <TemplatesTab /> : null },
        ]}
      />
    </section>
  );
}
