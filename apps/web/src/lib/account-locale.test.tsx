import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/react';
import { TOKEN_KEYS } from '@contest/shared';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { changeLocale } from '../i18n';
import { api } from './api';

/** The account's language follows a switch made while signed in (docs/decisions.md, "English"). */
describe('the language switch and the account language', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
    changeLocale('zh-cn');
  });

  it('signed in, a switch saves the account language of the page realm; signed out, nothing is called', async () => {
    const put = vi.spyOn(api, 'put').mockResolvedValue({ code: 200, status: 200, message: '', data: { locale: 'en' } } as never);
    const { container } = render(<LanguageSwitch />);
    const option = (value: string) => container.querySelector<HTMLInputElement>(`input[value="${value}"]`)!;
    fireEvent.click(option('en'));
    expect(put).not.toHaveBeenCalled();

    localStorage.setItem(TOKEN_KEYS.USER, 'token-of-a-participant');
    fireEvent.click(option('zh-cn'));
    expect(put).toHaveBeenLastCalledWith('/user/locale', { locale: 'zh-CN' }, { silent: true });
    fireEvent.click(option('en'));
    expect(put).toHaveBeenLastCalledWith('/user/locale', { locale: 'en' }, { silent: true });
    expect(put).toHaveBeenCalledTimes(2);
  });
});
