import { useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import {
  ConfigProvider,
  theme as antdTheme,
  type ConfigProviderProps,
  type ThemeConfig,
} from 'antd';
// The ES builds: antd/locale/* are CommonJS re-exports of antd/lib, a second copy of the date,
// calendar and pagination locales next to antd's own ES modules. en_US is antd's default locale,
// already part of ConfigProvider.
import zhCN from 'antd/es/locale/zh_CN';
import enUS from 'antd/es/locale/en_US';
import type { Locale } from '@contest/shared';
import { AriaRepairs } from '../components/a11y/AriaRepairs';
import { FeedbackProvider } from '../components/feedback';
import { i18n } from '../i18n';
import { usePreferences, type Preferences } from '../lib/preferences';
import { createQueryClient } from './query-client';
import { contrastTokens } from './theme-contrast';

type AntdLocale = NonNullable<ConfigProviderProps['locale']>;

const ANTD_LOCALES: Record<Locale, AntdLocale> = { 'zh-cn': zhCN, en: enUS };

// System fonts only: the portal must not fetch fonts at run time.
const FONT_FAMILY = [
  '-apple-system',
  'BlinkMacSystemFont',
  "'Segoe UI'",
  "'PingFang SC'",
  "'Hiragino Sans GB'",
  "'Microsoft YaHei'",
  "'Noto Sans CJK SC'",
  "'Source Han Sans SC'",
  "'WenQuanYi Zen Hei'",
  "'Helvetica Neue'",
  'Arial',
  'sans-serif',
].join(', ');

/**
 * WCAG 2.1 AA contrast (4.5:1 for text) on the light theme where antd's defaults fall short and a
 * token fixes it without side effects: secondary text and placeholders are 45% and 25% black
 * (3.4:1 and 1.8:1). Status colours are handled by contrastTokens (theme-contrast.ts).
 */
const LIGHT_CONTRAST_TOKENS = {
  colorTextTertiary: 'rgba(0, 0, 0, 0.58)',
  colorTextDescription: 'rgba(0, 0, 0, 0.58)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
} as const;

export function buildTheme(
  prefs: Pick<Preferences, 'theme' | 'themeColor'>,
): ThemeConfig {
  const dark = prefs.theme === 'dark';
  const algorithm = dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm;
  const token = {
    colorPrimary: prefs.themeColor,
    // Links follow the chosen colour (antd would take them from colorInfo).
    colorInfo: prefs.themeColor,
    colorLink: prefs.themeColor,
    fontFamily: FONT_FAMILY,
    ...(dark ? {} : LIGHT_CONTRAST_TOKENS),
  };
  // Readable status texts are worked out from the colours this theme derives (both modes, any
  // primary colour): docs/decisions.md, "Accessibility".
  const contrast = contrastTokens(antdTheme.getDesignToken({ algorithm, token }));
  return { algorithm, token: { ...token, ...contrast.token }, components: contrast.components };
}

/**
 * Mirrors a few antd tokens as CSS custom properties on <html>: antd's own variables are
 * scoped to its components, and the hand-written layout CSS needs the same colours.
 */
function ThemeVariables({ mode }: { mode: Preferences['theme'] }) {
  const { token } = antdTheme.useToken();
  useLayoutEffect(() => {
    const root = document.documentElement;
    const vars: Record<string, string> = {
      '--app-primary': token.colorPrimary,
      '--app-primary-hover': token.colorPrimaryHover,
      '--app-primary-active': token.colorPrimaryActive,
      '--app-primary-bg': token.colorPrimaryBg,
      '--app-bg-layout': token.colorBgLayout,
      '--app-bg-container': token.colorBgContainer,
      '--app-text': token.colorText,
      '--app-text-secondary': token.colorTextSecondary,
      '--app-border': token.colorBorderSecondary,
      '--app-font-family': token.fontFamily,
      // For the plain buttons and skeleton of the home page's first paint (components/plain-button).
      '--app-primary-border': token.colorPrimaryBorder,
      '--app-text-light-solid': token.colorTextLightSolid,
      '--app-control-border': token.colorBorder,
      '--app-control-outline': token.controlOutline,
      '--app-control-tmp-outline': token.controlTmpOutline,
      '--app-fill': token.colorFill,
      '--app-fill-content': token.colorFillContent,
      '--app-fill-tertiary': token.colorFillTertiary,
    };
    for (const [name, value] of Object.entries(vars)) root.style.setProperty(name, value);
    root.dataset.theme = mode;
    root.style.colorScheme = mode;
  }, [token, mode]);
  return null;
}

const FORM_CONFIG: ConfigProviderProps['form'] = { scrollToFirstError: { focus: true, block: 'center' } };

function ThemedAntd({ children }: { children: ReactNode }) {
  const prefs = usePreferences();
  const { theme: mode, themeColor } = prefs;
  const themeConfig = useMemo(() => buildTheme({ theme: mode, themeColor }), [mode, themeColor]);
  return (
    <ConfigProvider
      locale={ANTD_LOCALES[prefs.locale]}
      theme={themeConfig}
      // antd would render two-character labels as "登 录"; the spec's texts are unspaced.
      button={{ autoInsertSpace: false }}
      // A submit with mistakes moves focus to the first wrong field (WCAG 3.3.1), which then reads
      // its error (aria-describedby). Forms validated by hand use lib/form-errors.ts instead.
      form={FORM_CONFIG}
    >
      <ThemeVariables mode={prefs.theme} />
      <AriaRepairs />
      <FeedbackProvider>{children}</FeedbackProvider>
    </ConfigProvider>
  );
}

export interface AppProvidersProps {
  children: ReactNode;
  /** Tests pass their own client to keep caches apart. */
  queryClient?: QueryClient;
}

/** Everything a screen needs around it except the router. Call initI18n() before rendering. */
export function AppProviders({ children, queryClient }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <ThemedAntd>{children}</ThemedAntd>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
