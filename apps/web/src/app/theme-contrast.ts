import { type theme as antdTheme, type ThemeConfig } from 'antd';
import { contrastRatio, readableColor } from '../lib/contrast';

type Token = ReturnType<typeof antdTheme.getDesignToken>;
type Components = NonNullable<ThemeConfig['components']>;

/** antd's preset colours (`<Tag color="green">`): text is step 7 of the palette on step 1. */
const PRESETS = ['red', 'volcano', 'orange', 'gold', 'yellow', 'lime', 'green', 'cyan', 'blue', 'geekblue', 'purple', 'magenta'] as const;

const palette = (t: Token, name: string, steps: number[]) => steps.map((n) => t[`${name}${n}` as keyof Token] as string);

/**
 * Tokens that bring antd's status colours to 4.5:1 as text (WCAG 2.1 AA 1.4.3) without touching
 * the pale backgrounds antd derives from the seeds: darkening the seeds themselves made those
 * backgrounds muddy, so the seeds stay and only what paints text changes. `base` is the design
 * token of the theme as configured so far (light or dark, with the chosen primary colour).
 *
 * - Global text tokens (`colorErrorText`, `colorSuccessText`, `colorWarningText`: Typography,
 *   `colorErrorAffix`/`colorWarningAffix`: an input's prefix and suffix in that state,
 *   input/select status texts) are map tokens, safe to set.
 * - `colorError` itself is a seed (setting it re-derives the error backgrounds), so the components
 *   that write text in it (danger buttons and dropdown items, form errors, error tags, upload
 *   errors) get the readable red as a component token: antd red-7 (#cf1322) on the light theme,
 *   red-8 on hover/press. Solid danger buttons keep white text when it reads, dark text otherwise.
 * - Status tags write in `colorSuccess` / `colorWarning` / `colorInfo`: for Tag only, the first
 *   darker palette step readable on the tag's background (green-8, gold-9 on light).
 * - Preset tags (`color="green"`…) write in step 7 of the palette on step 1: for Tag only, step 7
 *   becomes the first of steps 7–10 readable on step 1 (green-8, gold-9, orange-8, cyan-8…).
 * - The empty table's text is antd's disabled grey (25% black, 1.8:1): the description grey.
 *
 * Dark theme: the same rules pick lighter steps of its palettes where antd's fall short.
 */
export function contrastTokens(base: Token): { token: Record<string, string>; components: Components } {
  const container = base.colorBgContainer;
  const red = (steps: number[]) => palette(base, 'red', steps);
  const error = readableColor([base.colorError, ...red([6, 7, 8, 9])], [container, base.colorBgLayout, base.colorErrorBg]);
  const errorHover = readableColor([base.colorErrorHover, ...red([8, 9])], [container]);
  const errorActive = readableColor([base.colorErrorActive, ...red([8, 9])], [container]);
  const success = readableColor([base.colorSuccess, ...palette(base, 'green', [7, 8, 9, 10])], [container, base.colorSuccessBg]);
  const warning = readableColor([base.colorWarning, ...palette(base, 'gold', [7, 8, 9, 10])], [container, base.colorWarningBg]);
  const info = readableColor([base.colorInfo, base.colorInfoTextActive], [container, base.colorInfoBg]);
  const errorText = { colorError: error, colorErrorHover: errorHover, colorErrorActive: errorActive };

  const presets: Record<string, string> = {};
  for (const name of PRESETS) {
    const [text, ...darker] = palette(base, name, [7, 8, 9, 10]);
    const readable = readableColor([text!, ...darker], palette(base, name, [1]));
    if (readable !== text) presets[`${name}7`] = readable;
  }

  return {
    token: {
      colorErrorText: error,
      colorErrorTextHover: errorHover,
      colorErrorTextActive: errorActive,
      colorSuccessText: success,
      colorWarningText: warning,
      // Prefix and suffix of an input in error/warning state (a score field's "/ 20"): alias
      // tokens antd derives from the seeds, so component tokens never reach them.
      colorErrorAffix: error,
      colorWarningAffix: warning,
    },
    components: {
      Button: { ...errorText, dangerColor: contrastRatio('#ffffff', error) >= 4.5 ? '#ffffff' : '#000000' },
      Dropdown: errorText,
      Form: { ...errorText, colorSuccess: success, colorWarning: warning },
      Input: errorText,
      InputNumber: errorText,
      Upload: errorText,
      Tag: { ...errorText, colorSuccess: success, colorWarning: warning, colorInfo: info, ...presets },
      Table: { colorTextDisabled: readableColor([base.colorTextDisabled, base.colorTextDescription, base.colorTextSecondary], [container]) },
    },
  };
}
