import { redirect } from 'react-router';
import { ApiError } from '../../../api';

/**
 * A form route's loader (docs/rules/team.md and docs/rules/prelim.md, "Status machine"):
 * the brief when its status lets the form open, else a redirect to the read-only detail page.
 * Kept out of the page modules so the route table can import it without the form's chunk.
 */
export function statusLoader<B>(fetchBrief: () => Promise<B>, formAllowed: (brief: B) => boolean, detailPath: string) {
  return async (): Promise<Response | B | null> => {
    let brief: B;
    try {
      brief = await fetchBrief();
    } catch (err) {
      // 401: the HTTP client has removed the token and opened the login dialog on /.
      if (err instanceof ApiError && err.status === 401) return redirect('/');
      // Anything else was already reported; the page loads the record itself and guards again.
      return null;
    }
    return formAllowed(brief) ? brief : redirect(detailPath);
  };
}
