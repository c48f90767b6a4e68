/** The expert's own appointment and thank-you letters (docs/certificates.md, "Web pages"). */
import type { MyCertificate } from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const MY_LETTERS_QUERY_KEY = ['expert', 'certificates', 'mine'] as const;

// Silent: the page shows its own failure with a retry; the menu simply stays without the entry.
export const fetchMyLetters = () => dataOf(api.get<MyCertificate[]>('/expert/certificates/mine', { silent: true }));
