/** The team's own certificates (docs/certificates.md, "Web pages"; packages/shared/src/certificates). */
import type { MyCertificate } from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const MY_CERTIFICATES_QUERY_KEY = ['certificates', 'mine'] as const;

// Silent: the card shows its own failure with a retry.
export const fetchMyCertificates = () => dataOf(api.get<MyCertificate[]>('/certificates/mine', { silent: true }));
