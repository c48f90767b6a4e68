/** Certificates and letters shared by the areas (docs/certificates.md): status tag, a holder's list, texts. */
export { CERTIFICATE_STATUS_COLORS, CertificateStatusTag } from './CertificateStatusTag';
export { MyCertificateList, type MyCertificateListProps } from './MyCertificateList';
export { apiPathOf, messageOf, useCertificateMessage } from './certificate-text';
