import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@contest/shared';
import { changeLocale } from '../i18n';
import { saveAccountLocale } from '../lib/account-locale';
import { usePreferences } from '../lib/preferences';

export interface LanguageSwitchProps {
  size?: 'small' | 'middle' | 'large';
  className?: string;
}

/**
 * Both options always visible, so a test (or a user) can click 'English' / '中文' directly.
 * A pair of native radio buttons drawn like antd's Segmented (styles/global.css): antd's
 * Segmented brings its Tooltip along, some 11 KB gzip in every page's first load.
 */
export function LanguageSwitch({ size = 'middle', className }: LanguageSwitchProps) {
  const { t } = useTranslation();
  const { locale } = usePreferences();
  const name = useId();
  return (
    <div
      data-testid="lang-switch"
      role="radiogroup"
      aria-label={t('language.label')}
      className={['lang-switch', `lang-switch--${size}`, className].filter(Boolean).join(' ')}
    >
      {LOCALES.map((value: Locale) => (
        <label key={value} className={value === locale ? 'lang-switch__item is-selected' : 'lang-switch__item'}>
          <input
            type="radio"
            className="lang-switch__input"
            name={name}
            value={value}
            checked={value === locale}
            onChange={() => {
              changeLocale(value);
              saveAccountLocale(value);
            }}
          />
          {/* Labels are fixed endonyms: each language is named in itself whatever the UI language. */}
          <span className="lang-switch__label" lang={value}>
            {t(`language.${value}`)}
          </span>
        </label>
      ))}
    </div>
  );
}
