import { lazy, Suspense } from 'react';
import { PlainButton } from '../../components/plain-button/PlainButton';
import { CloseCircleFilled } from '@ant-design/icons';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../components/PageLoading';

// A thrown 404 is no download failure: the 404 page (antd Result and its illustrations) may be a
// chunk of its own. The error screen below must not be: it is what shows when chunks fail.
const NotFoundPage = lazy(async () => ({ default: (await import('./NotFoundPage')).NotFoundPage }));

/** Error boundary of the root route: thrown 404 responses and crashed or missing chunks. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Suspense fallback={<PageLoading />}>
        <NotFoundPage />
      </Suspense>
    );
  }
  if (import.meta.env.DEV) console.error(error);
  return (
    <main className="status-page" data-testid="route-error">
      {/* antd Result's "error" layout, written out: Result imports all its illustrations. */}
      <div className="status-result" role="alert">
        <CloseCircleFilled className="status-result__icon" />
        <h1 className="status-result__title">{t('routeError.title')}</h1>
        <p className="status-result__subtitle">{t('routeError.subtitle')}</p>
        <div className="status-result__extra">
          {/* A full reload also picks up chunks renamed by a new deployment. */}
          <PlainButton type="primary" onClick={() => window.location.reload()}>
            {t('actions.reload')}
          </PlainButton>
        </div>
      </div>
    </main>
  );
}
