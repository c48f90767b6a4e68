/**
 * The reach rule for accounts (docs/security.md "Accounts and reach"): staff hand
 * out only what they hold. Shared so the console can tell these refusals from a missing button.
 */

/** `data.reason` of a 403 that refuses an account call out of the caller's reach. */
export const ACCOUNT_REFUSAL = {
  /** The target account holds, or would hold, a menu or button the caller lacks (or is a super admin). */
  reach: 'REACH',
} as const;

/**
 * `data.reason` of the 403 every call answers while the session's password was set by someone
 * else, except changing it, logging out and "who am I" (GET /user/account, /admin/user/account).
 */
export const PASSWORD_CHANGE_REQUIRED = 'PASSWORD_CHANGE_REQUIRED';

/**
 * What an expert account holds, in admin codes. Experts are a realm of their own; what a signed-in
 * expert reads is its groups' projects (both rounds) and their files, so taking one over would show
 * an operator what these codes show. Managing experts therefore needs these on top of the 专家库
 * buttons. Scoring itself has no admin code: docs/security.md says what bounds it.
 */
export const EXPERT_ACCOUNT_HOLDS: { menuCodes: readonly string[]; buttonCodes: readonly string[] } = {
  menuCodes: ['preliminarySearch', 'preliminaryAdminSearch'],
  buttonCodes: ['preliminary:view', 'file:read'],
};

/**
 * What a participant account holds, in admin codes: its own team's sign-up, materials and files,
 * and its people's phones, e-mails and credit codes in full. Resetting a participant's password
 * lets the operator sign in as them, so it needs these on top of user:reset-password. Disabling
 * or enabling gives the operator nothing (the password stays the participant's) and is not bound.
 */
export const PARTICIPANT_ACCOUNT_HOLDS: { menuCodes: readonly string[]; buttonCodes: readonly string[] } = {
  menuCodes: [],
  buttonCodes: ['pii:view', 'qualification:view', 'preliminary:view', 'file:read'],
};
