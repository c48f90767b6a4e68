import { Navigate, Outlet, useLocation, useOutletContext } from 'react-router';
import { useStaffInfo } from '../../../lib/session';
import { EXPERT_PATHS } from '../paths';

/** Where the home page learns that a review page sent the expert to the agreement. */
export interface AgreementRedirectState {
  agreementFrom?: string;
}

/**
 * Around the review pages: until the agreement is accepted (GET /admin/user/account -> agree)
 * they are not shown; the expert lands on the home page, which shows the agreement. The console
 * renders its pages only once the account is known.
 */
export function AgreementGate() {
  const info = useStaffInfo('EXPERT');
  const { pathname, search } = useLocation();
  const context = useOutletContext();
  if (info.data && !info.data.agree) {
    return <Navigate to={EXPERT_PATHS.home} replace state={{ agreementFrom: pathname + search } satisfies AgreementRedirectState} />;
  }
  return <Outlet context={context} />;
}
