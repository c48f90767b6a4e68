import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { KitTabs } from '../../../components/admin-kit';
import { BatchList } from './BatchList';
import { TemplatesTab } from './TemplatesTab';
import './messaging.css';

type TabKey = 'records' | 'templates';

/**
 * 短信管理 (/admin/information/NoteManage): bulk SMS to a segment (preview, progress, one record
 * per phone with the gateway's answer) and the templates that send SMS (the template editor,
 * filtered to SMS). The tab lives in the URL (?tab=).
 */
export function NoteManagePage() {
  const { t } = useTranslation('messaging');
  const { t: ta } = useTranslation('admin');
  const [params, setParams] = useSearchParams();
  const tab: TabKey = params.get('tab') === 'templates' ? 'templates' : 'records';

  return (
    <section className="admin-page" data-testid="note-page">
      <h1 className="admin-page__title">{ta('titles.noteManage')}</h1>
      <KitTabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'templates' ? { tab: key } : {}, { replace: true })}
        items={[
          { key: 'records', txtMes: t('tabs.records'), component: tab === 'records' ? <BatchList channel="SMS" /> : null },
          { key: 'templates', txtMes: t('tabs.templates'), component: tab === 'templates' ? <TemplatesTab channel="SMS" /> : null },
        ]}
      />
    </section>
  );
}
