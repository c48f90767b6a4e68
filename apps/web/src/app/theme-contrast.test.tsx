import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { Button, Tag, theme as antdTheme } from 'antd';
import { initI18n } from '../i18n';
import { contrastRatio } from '../lib/contrast';
import { DEFAULT_THEME_COLOR, initPreferences } from '../lib/preferences';
import { insertAntdStyles } from '../test-styles';
import { AppProviders, buildTheme } from './providers';

const PRESETS = ['red', 'volcano', 'orange', 'gold', 'yellow', 'lime', 'green', 'cyan', 'blue', 'geekblue', 'purple', 'magenta'];
type Tokens = Record<string, string>;

/** WCAG 2.1 AA 1.4.3: text at 4.5:1, in both modes and for a few primary colours. */
describe.each([
  ['light', DEFAULT_THEME_COLOR],
  ['light', '#1677ff'],
  ['light', '#faad14'],
  ['dark', DEFAULT_THEME_COLOR],
  ['dark', '#722ed1'],
] as const)('theme %s, primary %s: status texts read at 4.5:1', (mode, themeColor) => {
  const config = buildTheme({ theme: mode, themeColor });
  const final = antdTheme.getDesignToken(config) as unknown as Tokens;
  const components = config.components as Record<string, Tokens>;
  const tag = (key: string) => components.Tag?.[key] ?? final[key]!;
  const container = final.colorBgContainer!;

  it('status tags on their pale backgrounds', () => {
    expect(contrastRatio(tag('colorSuccess'), final.colorSuccessBg!)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(tag('colorWarning'), final.colorWarningBg!)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(tag('colorError'), final.colorErrorBg!)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(tag('colorInfo'), final.colorInfoBg!)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(PRESETS)('preset tag %s', (name) => {
    expect(contrastRatio(tag(`${name}7`), final[`${name}1`]!)).toBeGreaterThanOrEqual(4.5);
  });

  it('danger buttons (text, link, hover, solid), form errors and typography', () => {
    const button = components.Button!;
    expect(contrastRatio(button.colorError!, container)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(button.colorErrorHover!, container)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(button.dangerColor!, button.colorError!)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(components.Form!.colorError!, container)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(components.Dropdown!.colorError!, final.colorBgElevated!)).toBeGreaterThanOrEqual(4.5);
    for (const key of ['colorErrorText', 'colorSuccessText', 'colorWarningText']) expect(contrastRatio(final[key]!, container)).toBeGreaterThanOrEqual(4.5);
  });

  it("an input's prefix and suffix in error and warning state (a score field's '/ 20')", () => {
    expect(contrastRatio(final.colorErrorAffix!, container)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(final.colorWarningAffix!, container)).toBeGreaterThanOrEqual(4.5);
  });

  it("the empty table's text", () => {
    expect(contrastRatio(components.Table!.colorTextDisabled!, container)).toBeGreaterThanOrEqual(4.5);
  });

  it("keeps antd's pale backgrounds (the seeds are not darkened)", () => {
    const plain = antdTheme.getDesignToken({ algorithm: config.algorithm, token: { colorPrimary: themeColor, colorInfo: themeColor } }) as unknown as Tokens;
    for (const key of ['colorSuccessBg', 'colorWarningBg', 'colorErrorBg', 'colorErrorBorder', 'colorSuccess', 'colorWarning', 'colorError']) expect(final[key]).toBe(plain[key]);
  });
});

describe('the component tokens reach the page', () => {
  beforeAll(() => insertAntdStyles());
  afterAll(() => insertAntdStyles(false));

  it("writes a success tag and a danger link in the readable colours (antd's CSS variables)", async () => {
    initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'] });
    initI18n();
    render(
      <AppProviders queryClient={new QueryClient()}>
        <Tag color="success">已通过</Tag>
        <Button type="link" danger>
          删除
        </Button>
      </AppProviders>,
    );
    const css = () => [...document.querySelectorAll('style')].map((s) => s.textContent ?? '').join('\n').toLowerCase();
    await waitFor(() => expect(css()).toContain('#237804')); // green-8, 5.4:1 on the tag's green-1
    expect(css()).toContain('#cf1322'); // red-7, 5.6:1 on white
  });
});
