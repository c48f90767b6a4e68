import type { Locator, Page } from 'playwright-core';
import { solveSlider } from './slider.js';

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

/** A participant signs in through the page's login dialog (name, password, slider) and lands on 报名详情. */
export async function participantLogin(page: Page, base: string, user: { username: string; password: string }): Promise<void> {
  await page.goto(base);
  await page.getByRole('button', { name: '登 录' }).or(page.getByRole('button', { name: '登录' })).first().click();
  const modal = page.getByTestId('auth-modal');
  await modal.getByPlaceholder('请输入用户名', { exact: true }).fill(user.username);
  await modal.getByPlaceholder('请输入密码', { exact: true }).fill(user.password);
  await submitLogin(page, modal);
  await solveSlider(page);
  await page.waitForURL(/\/my-sign/);
}
