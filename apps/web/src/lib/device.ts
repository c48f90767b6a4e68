/** Mobile browsers log in without the slider (docs/rules/identity.md, "Sign-in"); the server may still ask for it. */
const MOBILE_PATTERN = /Android|iPhone|iPad|Mobile/i;

export function isMobileBrowser(userAgent: string = navigator.userAgent): boolean {
  return MOBILE_PATTERN.test(userAgent);
}
