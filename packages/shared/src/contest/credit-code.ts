/**
 * Unified social credit code (GB 32100-2015): 18 characters from a 31-character alphabet (digits
 * and upper-case letters without I, O, S, V, Z); the last is a check character computed from the
 * first 17 with weights 3^i mod 31.
 */
export const CREDIT_CODE_ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
export const CREDIT_CODE_LENGTH = 18;

/** The check character of the first 17 characters, or null when one is outside the alphabet. */
export function creditCodeCheckChar(first17: string): string | null {
  if (first17.length !== 17) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const value = CREDIT_CODE_ALPHABET.indexOf(first17[i]!);
    if (value < 0) return null;
    sum += value * WEIGHTS[i]!;
  }
  return CREDIT_CODE_ALPHABET[(31 - (sum % 31)) % 31]!;
}

/** True for an 18-character code (upper case) whose check character matches. */
export function creditCodeValid(code: string): boolean {
  if (code.length !== CREDIT_CODE_LENGTH) return false;
  const check = creditCodeCheckChar(code.slice(0, 17));
  return check !== null && check === code[17];
}
