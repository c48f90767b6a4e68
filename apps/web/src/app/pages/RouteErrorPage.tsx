import { Button, Result } from 'antd';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NotFoundPage } from './NotFoundPage';

/** Error boundary of the root route: thrown 404 responses and crashed or missing chunks. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (import.meta.env.DEV) console.error(error);
  return (
    <main className="status-page" data-testid="route-error">
      <Result
        status="error"
        title={t('routeError.title')}
        subTitle={t('routeError.subtitle')}
        extra={
          // A full reload also picks up chunks renamed by a new deployment.
          <Button type="primary" onClick={() => window.location.reload()}>
            {t('actions.reload')}
          </Button>
        }
      />
    </main>
  );
}
