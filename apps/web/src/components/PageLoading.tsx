import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

/** Shown while a lazily loaded area or page chunk arrives. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page-loading" role="status">
      <Spin size="large" />
      <span className="page-loading__text">{t('loading')}</span>
    </div>
  );
}
