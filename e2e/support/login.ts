import type { Locator, Page } from 'playwright-core';

/**
 * Presses the login dialog's submit until the slider captcha shows. The dialog zooms in when it
 * opens: on a loaded machine a click measured mid-animation can land beside the button, and the
 * journey would then wait for a slider that never comes (seen in CI). A person presses again.
 */
export async function submitLogin(page: Page, modal: Locator, attempts = 3): Promise<void> {
  const slider = page.getByTestId('slider-captcha');
  for (let attempt = 1; attempt <= attempts; attempt++) {
    await modal.getByTestId('login-submit').click();
    try {
      await slider.waitFor({ timeout: 10_000 });
      return;
    } catch {
      if (attempt === attempts) throw new Error('the slider captcha did not open after pressing 登录');
    }
  }
}
