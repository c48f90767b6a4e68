/**
 * Route loader of /material-submission (docs/rules/prelim.md, "Status machine"): the form is open only while the
 * materials are absent, NOT_FILLED, a DRAFT or REVISING; any other status goes to
 * /material-submission/detail. A team not yet approved (prelimDocStatus null) stays and is
 * told why the form is closed.
 */
import { PRELIM_EDITABLE_STATUSES, type PrelimDocStatus } from '@contest/shared';
import { statusLoader } from '../components/status-loader';
import { fetchPrelimBrief } from '../team/contest-api';

export const MATERIAL_DETAIL_PATH = '/material-submission/detail';

export const prelimFormAllowed = (status: PrelimDocStatus | null): boolean =>
  (PRELIM_EDITABLE_STATUSES as readonly (PrelimDocStatus | null)[]).includes(status);

export const materialSubmissionLoader = statusLoader(fetchPrelimBrief, (brief) => prelimFormAllowed(brief.prelimDocStatus), MATERIAL_DETAIL_PATH);
