import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@contest/shared';
import { changeLocale } from '../i18n';
import { usePreferences } from '../lib/preferences';

export interface LanguageSwitchProps {
  size?: 'small' | 'middle' | 'large';
  className?: string;
}

/** Both options always visible, so a test (or a user) can click 'English' / '中文' directly. */
export function LanguageSwitch({ size = 'middle', className }: LanguageSwitchProps) {
  const { t } = useTranslation();
  const { locale } = usePreferences();
  return (
    <Segmented<Locale>
      data-testid="lang-switch"
      aria-label={t('language.label')}
      className={className}
      size={size}
      value={locale}
      // Labels are fixed endonyms: each language is named in itself whatever the UI language.
      options={LOCALES.map((value) => ({ value, label: t(`language.${value}`) }))}
      onChange={changeLocale}
    />
  );
}
