import { Button, Result } from 'antd';
import { Navigate, useLocation, useNavigate, useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStaffInfo, type StaffRealm } from '../../lib/session';
import { groupLandingPath } from './console-menu';

/** What the console layout hands to its pages through the outlet. */
export interface ConsoleOutletContext {
  realm: StaffRealm;
  homePath: string;
}

/**
 * The console's catch-all page (its `*` route). A menu group's own path (/admin/system,
 * /admin/final...) opens the group's first entry the account may use, read from the menus the
 * server sent, so groups added later need no route; any other unknown path shows a 404 inside
 * the console, leading back to its home.
 */
export function ConsoleNotFound() {
  const { t } = useTranslation('admin');
  const { realm, homePath } = useOutletContext<ConsoleOutletContext>();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // The layout renders its pages only once the account is known.
  const { data } = useStaffInfo(realm);
  const landing = data ? groupLandingPath(data.menus, pathname) : null;
  if (landing) return <Navigate to={landing} replace />;
  return (
    <div data-testid="console-not-found">
      <Result
        status="404"
        title={t('console.notFound')}
        subTitle={t('console.notFoundHint')}
        extra={
          <Button type="primary" onClick={() => void navigate(homePath)}>
            {t('console.backHome')}
          </Button>
        }
      />
    </div>
  );
}
