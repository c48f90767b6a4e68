import { randomBytes } from 'node:crypto';
import { CROCKFORD_ALPHABET } from '@contest/shared';

/**
 * A new serial (docs/certificates.md, "Serials"): the contest year, then 80 random bits as 16
 * Crockford base32 characters in groups of four, e.g. `2026-7K3Q-9XWD-M2PA-RT0V`. Unguessable
 * (2^80 values, none derived from the holder), easy to read out and type.
 */
export function newCertificateSerial(year: number): string {
  const bytes = randomBytes(10);
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let chars = '';
  for (let i = 0; i < 16; i++) {
    chars = CROCKFORD_ALPHABET[Number(bits & 31n)]! + chars;
    bits >>= 5n;
  }
  return `${String(year).padStart(4, '0')}-${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}-${chars.slice(12, 16)}`;
}

/** The serial printed on previews: the right shape, never issued (80 random bits are never all zero in practice, and issuing skips it). */
export const previewSerial = (year: number) => `${String(year).padStart(4, '0')}-0000-0000-0000-0000`;
