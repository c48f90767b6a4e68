import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FeedbackPanel } from './FeedbackPanel';
import { InboxPanel } from './InboxPanel';
import './participant-pages.css';

type MessageTab = 'inbox' | 'feedback';

/** /my-message: the inbox and the feedback desk, one tab each (the tab is kept in the address). */
export function MyMessagePage() {
  const { t } = useTranslation('participant');
  const [params, setParams] = useSearchParams();
  const tab: MessageTab = params.get('tab') === 'feedback' ? 'feedback' : 'inbox';
  return (
    <section className="participant-page my-message">
      <h1 className="participant-page__title">{t('titles.myMessage')}</h1>
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'feedback' ? { tab: 'feedback' } : {}, { replace: true })}
        items={[
          { key: 'inbox', label: t('inbox.tab'), children: <InboxPanel /> },
          { key: 'feedback', label: t('feedback.tab'), children: <FeedbackPanel /> },
        ]}
      />
    </section>
  );
}
