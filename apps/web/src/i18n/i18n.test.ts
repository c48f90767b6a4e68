import { beforeEach, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { AUTH_MSG, TEMPLATE_VARIABLES, VALIDATION_MSG } from '@contest/shared';
import { initPreferences } from '../lib/preferences';
import { changeLocale, currentLocale, i18n, initI18n } from './index';
import { resources } from './resources';

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keysOf(child, prefix ? `${prefix}.${key}` : key),
  );
}

describe('i18n', () => {
  beforeEach(() => {
    document.documentElement.lang = 'zh-cn';
  });

  it('starts in the language from ?lang= and sets <html lang>', () => {
    initPreferences({ search: '?lang=en', storage: localStorage, languages: ['zh-CN'] });
    initI18n();
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.t('appName')).toBe('2025 National Smart Medical-Insurance Competition');
  });

  it('falls back to the browser language, then to zh-cn', () => {
    initPreferences({ search: '', storage: localStorage, languages: ['en-GB'] });
    initI18n();
    expect(currentLocale()).toBe('en');

    initPreferences({ search: '', storage: localStorage, languages: ['fr-FR'] });
    expect(currentLocale()).toBe('zh-cn');
    expect(i18n.language).toBe('zh-cn');
    expect(document.documentElement.lang).toBe('zh-cn');
    expect(i18n.t('appName')).toBe('2025全国智慧医保大赛');
  });

  it('switching persists the choice and updates i18next, dayjs and <html lang>', () => {
    initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'] });
    initI18n();

    changeLocale('en');
    expect(localStorage.getItem('lang')).toBe('en');
    expect(i18n.language).toBe('en');
    expect(dayjs.locale()).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.t('auth.welcome')).toBe(
      'Welcome to the 2025 National Smart Medical-Insurance Competition',
    );

    changeLocale('zh-cn');
    expect(localStorage.getItem('lang')).toBe('zh-cn');
    expect(dayjs.locale()).toBe('zh-cn');
    expect(document.documentElement.lang).toBe('zh-cn');
    expect(i18n.t('auth.welcome')).toBe('欢迎参加2025全国智慧医保大赛');

    // A stored choice beats the browser on the next visit.
    const nextVisit = initPreferences({ search: '', storage: localStorage, languages: ['en-US'] });
    expect(nextVisit.locale).toBe('zh-cn');
  });

  it('has the same keys in every language', () => {
    const zh = keysOf(resources['zh-cn']).sort();
    expect(keysOf(resources.en).sort()).toEqual(zh);
  });

  it('keeps the shared Chinese messages word for word', () => {
    expect(resources['zh-cn'].common.validation).toEqual(VALIDATION_MSG);
    expect(resources['zh-cn'].common.authMsg).toEqual(AUTH_MSG);
  });

  it('names every template variable the server offers, in both languages', () => {
    const offered = Object.keys(TEMPLATE_VARIABLES).sort();
    expect(Object.keys(resources['zh-cn'].messaging.variables).sort()).toEqual(offered);
    // The Chinese labels are the catalogue's own.
    for (const [key, { label }] of Object.entries(TEMPLATE_VARIABLES)) expect(resources['zh-cn'].messaging.variables[key as keyof typeof TEMPLATE_VARIABLES]).toBe(label);
  });
});
