import { describe, expect, it } from 'vitest';
import { contrastRatio, readableColor } from './contrast';

describe('contrastRatio (WCAG 2.1 relative luminance)', () => {
  it('measures the known pairs', () => {
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ff4d4f', '#ffffff')).toBeCloseTo(3.27, 2); // antd's error red
    expect(contrastRatio('#cf1322', '#ffffff')).toBeCloseTo(5.57, 2); // antd red-7
    // 58% black on white, as the browser paints it.
    expect(contrastRatio('rgba(0, 0, 0, 0.58)', '#ffffff')).toBeCloseTo(5.32, 1);
    expect(contrastRatio('#0000008c', '#ffffff')).toBeCloseTo(contrastRatio('rgba(0,0,0,0.549)', '#fff'), 1);
  });
});

describe('readableColor', () => {
  it('takes the first candidate that reads on every background', () => {
    expect(readableColor(['#52c41a', '#389e0d', '#237804'], ['#f6ffed', '#ffffff'])).toBe('#237804');
  });

  it('darkens on light backgrounds and lightens on dark ones when no candidate reads', () => {
    const onLight = readableColor(['#faad14'], ['#ffffff']);
    expect(contrastRatio(onLight, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    const onDark = readableColor(['#1759a7'], ['#141414']);
    expect(contrastRatio(onDark, '#141414')).toBeGreaterThanOrEqual(4.5);
  });
});
