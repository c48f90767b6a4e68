/**
 * Masking of personal information (China's Personal Information Protection Law; docs/rules/admin.md,
 * "Personal information"): the one place that decides how a phone number, an e-mail address, a unified
 * social credit code or a free-text contact reads when the console shows it masked. The
 * server masks with these before a value leaves it; the web only displays what it gets.
 *
 * Every mask contains `PII_MASK_CHAR`, which none of the real values can hold (phones are
 * digits, credit codes use a 31-character alphabet, the e-mail pattern has no `*`): a form that
 * sends a masked value back unchanged is recognised, and the stored value kept.
 */
import type { ButtonCode } from './admin-menus.js';

export const PII_MASK_CHAR = '*';

/** The button that lets a role see personal information in full (reveal, unmasked exports). */
export const PII_VIEW_BUTTON = 'pii:view' satisfies ButtonCode;

/** True when the text is (or contains) a mask, i.e. is not a value someone typed. */
export const isMaskedPii = (value: string | null | undefined): boolean => !!value && value.includes(PII_MASK_CHAR);

/** Short or odd values: their first character, then three stars (the length is not told). */
function maskShort(value: string): string {
  return `${[...value][0] ?? ''}***`;
}

/** 13800000005 -> 138****0005: the carrier prefix and the last four, as banks and couriers print them. */
export function maskPhone<T extends string | null | undefined>(phone: T): T {
  if (!phone) return phone;
  const v = phone.trim();
  return (v.length >= 7 ? `${v.slice(0, 3)}****${v.slice(-4)}` : maskShort(v)) as T;
}

/** zhang@example.com -> z***@example.com: the first letter and the domain (enough to tell two addresses apart). */
export function maskEmail<T extends string | null | undefined>(email: T): T {
  if (!email) return email;
  const v = email.trim();
  const at = v.lastIndexOf('@');
  return (at > 0 ? `${v[0]}***${v.slice(at)}` : maskShort(v)) as T;
}

/**
 * 91110000123456789X -> 9111**********789X: the first four (registration authority, type and
 * province) and the last four, the length kept, so two codes of one organisation still compare.
 */
export function maskCreditCode<T extends string | null | undefined>(code: T): T {
  if (!code) return code;
  const v = code.trim();
  return (v.length > 8 ? `${v.slice(0, 4)}${PII_MASK_CHAR.repeat(v.length - 8)}${v.slice(-4)}` : maskShort(v)) as T;
}

const EMAIL_IN_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const DIGITS_IN_TEXT = /\d{7,}/g;

/**
 * A free-text contact (feedback): phone numbers and addresses in it are masked in place; a
 * contact that holds neither (a WeChat id, say) is masked whole.
 */
export function maskContact<T extends string | null | undefined>(contact: T): T {
  if (!contact) return contact;
  let found = false;
  const masked = contact
    .replace(EMAIL_IN_TEXT, (m) => {
      found = true;
      return maskEmail(m);
    })
    .replace(DIGITS_IN_TEXT, (m) => {
      found = true;
      return maskPhone(m);
    });
  return (found ? masked : maskShort(contact.trim())) as T;
}
