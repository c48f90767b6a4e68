/** The certificates texts keep the shared messages word for word and give each an English one. */
import { describe, expect, it } from 'vitest';
import { CERTIFICATE_MSG } from '@contest/shared';
import { resources } from '../../i18n/resources';
import { apiPathOf } from './certificate-text';

describe('certificate texts', () => {
  it('hold CERTIFICATE_MSG as the server sends it, and English for every one of them', () => {
    expect(resources['zh-cn'].certificates.msg).toEqual(CERTIFICATE_MSG);
    expect(Object.keys(resources.en.certificates.msg).sort()).toEqual(Object.keys(CERTIFICATE_MSG).sort());
    for (const text of Object.values(resources.en.certificates.msg)) expect(text).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('take a download path with or without the API prefix', () => {
    expect(apiPathOf('/api/certificates/c1/pdf')).toBe('/certificates/c1/pdf');
    expect(apiPathOf('/certificates/c1/pdf')).toBe('/certificates/c1/pdf');
    expect(apiPathOf('/apiary/x')).toBe('/apiary/x');
  });
});
