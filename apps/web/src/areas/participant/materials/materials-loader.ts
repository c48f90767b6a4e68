/**
 * Route loader of /material-submission (docs/rules/materials.md, "Status machine"): the form is open only while the
 * materials are absent, NOT_FILLED, a DRAFT or REVISING; any other status goes to
 * /material-submission/detail. A team not yet approved (prelimDocStatus null) stays and is
 * told why the form is closed.
 */
import { redirect } from 'react-router';
import { PRELIM_EDITABLE_STATUSES, type PrelimBrief, type PrelimDocStatus } from '@contest/shared';
import { ApiError } from '../../../api';
import { fetchPrelimBrief } from '../sign/contest-api';

export const MATERIAL_DETAIL_PATH = '/material-submission/detail';

export const prelimFormAllowed = (status: PrelimDocStatus | null): boolean =>
  (PRELIM_EDITABLE_STATUSES as readonly (PrelimDocStatus | null)[]).includes(status);

export async function materialSubmissionLoader(): Promise<Response | PrelimBrief | null> {
  let brief: PrelimBrief;
  try {
    brief = await fetchPrelimBrief();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return redirect('/');
    return null;
  }
  return prelimFormAllowed(brief.prelimDocStatus) ? brief : redirect(MATERIAL_DETAIL_PATH);
}
