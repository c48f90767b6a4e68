/**
 * Route loader of /my-sign (docs/rules/team.md, "Status machine"): the form is open only while the team is absent,
 * a DRAFT or REVISING; any other status goes to /my-sign/detail.
 */
import { teamEditable } from '@contest/shared';
import { statusLoader } from '../components/status-loader';
import { fetchTeamBrief } from './contest-api';

export const MY_SIGN_DETAIL_PATH = '/my-sign/detail';

export const mySignLoader = statusLoader(fetchTeamBrief, (brief) => teamEditable(brief.teamStatus), MY_SIGN_DETAIL_PATH);
