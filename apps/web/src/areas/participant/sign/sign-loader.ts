/**
 * Route loader of /my-sign (docs/rules/sign-up.md, "Status machine"): the form is open only while the team is absent,
 * a DRAFT or REVISING; any other status goes to /my-sign/detail. Kept out of the page module
 * so the route table can import it without pulling the form's chunk.
 */
import { redirect } from 'react-router';
import { teamEditable, type TeamBrief } from '@contest/shared';
import { ApiError } from '../../../api';
import { fetchTeamBrief } from './contest-api';

export const MY_SIGN_DETAIL_PATH = '/my-sign/detail';

export async function mySignLoader(): Promise<Response | TeamBrief | null> {
  let brief: TeamBrief;
  try {
    brief = await fetchTeamBrief();
  } catch (err) {
    // 401: the HTTP client has removed the token and opened the login dialog on /.
    if (err instanceof ApiError && err.status === 401) return redirect('/');
    // Anything else was already reported; the page loads the team itself and guards again.
    return null;
  }
  return teamEditable(brief.teamStatus) ? brief : redirect(MY_SIGN_DETAIL_PATH);
}
