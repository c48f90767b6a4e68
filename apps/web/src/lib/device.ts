/** Mobile browsers log in without the slider (spec section 4); the server may still ask for it. */
const MOBILE_PATTERN = /Android|iPhone|iPad|Mobile/i;

export function isMobileBrowser(userAgent: string = navigator.userAgent): boolean {
  return MOBILE_PATTERN.test(userAgent);
}
