import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_THEME_COLOR,
  getPreferences,
  initPreferences,
  readPreferences,
  setPreferences,
  subscribePreferences,
} from './preferences';

const env = (search = '', languages: readonly string[] = ['zh-CN']) => ({
  search,
  storage: localStorage,
  languages,
});

describe('preferences', () => {
  beforeEach(() => {
    initPreferences(env());
  });

  it('starts from defaults', () => {
    expect(getPreferences()).toEqual({
      locale: 'zh-cn',
      theme: 'light',
      themeColor: DEFAULT_THEME_COLOR,
      navVisible: true,
    });
  });

  it('persists every preference in localStorage and reloads it', () => {
    setPreferences({ locale: 'en', theme: 'dark', themeColor: '#AA3300', navVisible: false });
    expect(localStorage.getItem('lang')).toBe('en');
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(localStorage.getItem('themeColor')).toBe('#aa3300');
    expect(localStorage.getItem('navVisible')).toBe('false');

    expect(initPreferences(env())).toEqual({
      locale: 'en',
      theme: 'dark',
      themeColor: '#aa3300',
      navVisible: false,
    });
  });

  it('ignores invalid values, whether stored or set', () => {
    localStorage.setItem('theme', 'purple');
    localStorage.setItem('themeColor', 'red');
    localStorage.setItem('navVisible', 'maybe');
    localStorage.setItem('lang', 'fr');
    const prefs = initPreferences(env());
    expect(prefs).toEqual({
      locale: 'zh-cn',
      theme: 'light',
      themeColor: DEFAULT_THEME_COLOR,
      navVisible: true,
    });

    setPreferences({ themeColor: 'javascript:alert(1)' });
    expect(getPreferences().themeColor).toBe(DEFAULT_THEME_COLOR);
  });

  it('notifies subscribers only on real changes', () => {
    const listener = vi.fn();
    const unsubscribe = subscribePreferences(listener);
    setPreferences({ theme: 'dark' });
    setPreferences({ theme: 'dark' });
    unsubscribe();
    setPreferences({ theme: 'light' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith(expect.objectContaining({ theme: 'dark' }));
  });

  it('keeps working when storage throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    } as unknown as Storage;
    initPreferences({ search: '', storage: broken, languages: ['en-US'] });
    expect(getPreferences().locale).toBe('en');
    setPreferences({ theme: 'dark' });
    expect(getPreferences().theme).toBe('dark');
  });

  describe('initial locale', () => {
    it('takes ?lang= first, then the stored choice, then the browser, then zh-cn', () => {
      localStorage.setItem('lang', 'zh-cn');
      expect(readPreferences(env('?lang=en', ['zh-CN'])).prefs.locale).toBe('en');
      expect(readPreferences(env('', ['en-US'])).prefs.locale).toBe('zh-cn');
      localStorage.clear();
      expect(readPreferences(env('', ['fr-FR', 'en-GB'])).prefs.locale).toBe('en');
      expect(readPreferences(env('?lang=de', ['fr-FR'])).prefs.locale).toBe('zh-cn');
    });

    it('remembers a valid ?lang= so later links keep the language', () => {
      initPreferences(env('?lang=en'));
      expect(localStorage.getItem('lang')).toBe('en');
      expect(initPreferences(env('')).locale).toBe('en');
    });

    it('does not store a browser-derived language', () => {
      initPreferences(env('', ['en-US']));
      expect(localStorage.getItem('lang')).toBeNull();
    });
  });
});
