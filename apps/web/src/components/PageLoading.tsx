import { useTranslation } from 'react-i18next';

/**
 * Shown while a lazily loaded area or page chunk arrives. antd's large Spin, drawn in CSS
 * (styles/global.css): it is the first thing every visitor sees, before antd's Spin would be
 * worth its 3 KB.
 */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page-loading" role="status">
      <span className="page-loading__dots" aria-hidden="true">
        <i />
        <i />
        <i />
        <i />
      </span>
      <span className="page-loading__text">{t('loading')}</span>
    </div>
  );
}
