/**
 * Personal information in the console's answers (docs/rules/admin.md, "Personal information"), the server half of
 * packages/shared/src/pii.ts:
 *
 * - `MASKED_PII` / `FULL_PII`: the serialisers of every admin answer and export that carries a
 *   phone, an e-mail, a credit code or a free-text contact call these, never the mask functions
 *   directly. JSON answers always use `MASKED_PII`; an export uses `FULL_PII` only for a role
 *   holding `pii:view` (the route decides, see AdminGuards.pii). One full record is read with
 *   GET /admin/pii/:kind/:id, recorded each time (modules/admin/pii).
 * - `piiSearch`: a search over a phone (or a contact) matches any part of it only for those who
 *   may see it in full; others must type the whole value, or the masked list could be unmasked
 *   one digit at a time by searching.
 * - `unmaskInput`: a form that shows a masked value and sends it back unchanged keeps the
 *   stored value; any other masked text is refused.
 */
import { eq, or, type AnyColumn, type SQL } from 'drizzle-orm';
import { ADMIN_MSG, isMaskedPii, maskContact, maskCreditCode, maskEmail, maskPhone, type TeamDetail } from '@contest/shared';
import { badRequest } from './errors.js';
import { contains } from './list-query.js';

type Mask = <T extends string | null | undefined>(value: T) => T;

export interface Pii {
  /** True when the values go out as stored. */
  full: boolean;
  phone: Mask;
  email: Mask;
  creditCode: Mask;
  contact: Mask;
}

const same: Mask = (value) => value;

export const MASKED_PII: Pii = { full: false, phone: maskPhone, email: maskEmail, creditCode: maskCreditCode, contact: maskContact };
export const FULL_PII: Pii = { full: true, phone: same, email: same, creditCode: same, contact: same };

export const piiOf = (full: boolean): Pii => (full ? FULL_PII : MASKED_PII);

/** How an export's operation record says what it held (after its filters and row count). */
export const piiNote = (pii: Pii) => (pii.full ? '，含完整个人信息' : '，个人信息已脱敏');

/**
 * A keyword over personal-information columns: "contains" for a caller who may see them in
 * full, whole-value equality otherwise (spaces around the keyword ignored). `undefined` when
 * there is no keyword, like the list-query builders.
 */
export function piiSearch(columns: AnyColumn | readonly AnyColumn[], value: string | undefined, full: boolean): SQL | undefined {
  if (!value) return undefined;
  if (full) return contains(columns, value);
  const list: readonly AnyColumn[] = Array.isArray(columns) ? columns : [columns as AnyColumn];
  const typed = value.trim();
  return list.length === 1 ? eq(list[0]!, typed) : or(...list.map((c) => eq(c, typed)));
}

/**
 * The value to store for a field a form may send back masked: `submitted` itself when it is
 * not a mask; the stored value when `submitted` is exactly how that value reads masked; a 400
 * naming the field otherwise (a mask that was edited, or a mask where nothing is stored).
 */
export function unmaskInput<T extends string | null | undefined>(submitted: T, stored: string | null | undefined, mask: Mask, field: string): T | string {
  if (!isMaskedPii(submitted)) return submitted;
  if (stored && mask(stored) === submitted) return stored;
  throw badRequest(ADMIN_MSG.piiMaskedValue, { field, reason: 'MASKED_VALUE' });
}

// ---- Record shapes of the console's answers ------------------------------------------------------

type Contact = { phone: string; email: string };
const maskContactOf = <T extends Contact>(p: T): T => ({ ...p, phone: MASKED_PII.phone(p.phone), email: MASKED_PII.email(p.email) });

/** The owning account (team and project details): its phone. */
export const maskOwner = <T extends { owner?: { phone: string | null } }>(d: T): T =>
  d.owner ? { ...d, owner: { ...d.owner, phone: MASKED_PII.phone(d.owner.phone) } } : d;

/** A sign-up as the console shows it: the credit code and every person's phone and e-mail. */
export function maskTeamDetail<T extends Pick<TeamDetail, 'creditCode' | 'leader' | 'members' | 'advisor' | 'owner'>>(d: T): T {
  return maskOwner({
    ...d,
    creditCode: MASKED_PII.creditCode(d.creditCode),
    leader: maskContactOf(d.leader),
    members: d.members.map(maskContactOf),
    advisor: d.advisor && maskContactOf(d.advisor),
  });
}
