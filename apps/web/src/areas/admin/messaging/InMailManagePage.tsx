import { useTranslation } from 'react-i18next';
import { BatchList } from './BatchList';
import './messaging.css';

/**
 * 站内信管理 (/admin/information/InMailManage): in-site messages to a segment of participants,
 * with read counts, progress while sending, and 撤回 of a message sent by mistake.
 */
export function InMailManagePage() {
  const { t } = useTranslation('admin');
  return (
    <section className="admin-page" data-testid="inmail-page">
      <h1 className="admin-page__title">{t('titles.inMailManage')}</h1>
      <BatchList channel="INSITE" />
    </section>
  );
}
