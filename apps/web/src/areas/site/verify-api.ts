/** The public verification of a certificate (docs/certificates.md, "Verification"). */
import type { CertificateVerification } from '@contest/shared';
import { api, dataOf } from '../../lib/api';

export const verifyQueryKey = (serial: string) => ['certificates', 'verify', serial] as const;

// Silent: the page shows not-found and failures itself.
export const fetchVerification = (serial: string) =>
  dataOf(api.get<CertificateVerification>(`/certificates/verify/${encodeURIComponent(serial)}`, { silent: true }));
