import { describe, expect, it } from 'vitest';
import { nextRotation, nextZoom, wheelDeltaOf } from './image-transform';
import { countCharacters, isPageNumberLine, pageText } from './pdf-text';
import { previewWatermarkText } from './preview-watermark';

describe('nextRotation', () => {
  it('steps 90 degrees modulo 360', () => {
    let deg = 0;
    const seen: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      deg = nextRotation(deg);
      seen.push(deg);
    }
    expect(seen).toEqual([90, 180, 270, 0, 90]);
    expect(nextRotation(-90)).toBe(0);
  });
});

describe('nextZoom', () => {
  it('adds wheelDelta / 1200', () => {
    expect(nextZoom(1, 120)).toBeCloseTo(1.1);
    expect(nextZoom(1, -120)).toBeCloseTo(0.9);
  });

  it('applies only strictly between 0.1 and 5', () => {
    // 0.2 - 0.1 = 0.1: on the bound, refused.
    expect(nextZoom(0.2, -120)).toBe(0.2);
    expect(nextZoom(0.21, -120)).toBeCloseTo(0.11);
    // 4.9 + 0.1 = 5: on the bound, refused.
    expect(nextZoom(4.9, 120)).toBe(4.9);
    expect(nextZoom(4.85, 120)).toBeCloseTo(4.95);
    expect(nextZoom(1, 6000)).toBe(1);
  });

  it('wheelDeltaOf prefers the legacy wheelDelta and derives it otherwise', () => {
    expect(wheelDeltaOf({ wheelDelta: 240, deltaY: -200, deltaMode: 0 })).toBe(240);
    expect(wheelDeltaOf({ deltaY: 100, deltaMode: 0 })).toBe(-120);
    expect(wheelDeltaOf({ deltaY: -3, deltaMode: 1 })).toBe(120);
  });
});

describe('PDF character count', () => {
  it.each(['3', ' 12 ', '3/10', '3 / 10', 'page 3 of 10', 'Page 3', '第3页', '第 3 页 共 10 页', '第三页', '- 3 -', '共10页 第3页'])(
    '"%s" is a page-number line',
    (line) => {
      expect(isPageNumberLine(line)).toBe(true);
    },
  );

  it.each(['第3章', 'page three', '3 apples', ''])('"%s" is not', (line) => {
    expect(isPageNumberLine(line)).toBe(false);
  });

  it('counts CJK characters and Latin letters only, skipping page-number lines', () => {
    const text = ['智慧医保 AI 2025!', '3', 'Page 2 of 9', '第 3 页', '数据，Data。', 'ÉCOLE'].join('\n');
    // 智慧医保(4) + AI(2) + 数据(2) + Data(4) + ÉCOLE(5)
    expect(countCharacters(text)).toBe(17);
  });

  it('pageText joins items into lines at hasEOL', () => {
    expect(pageText([{ str: '第一' }, { str: '行', hasEOL: true }, {}, { str: '2' }])).toBe('第一行\n2');
  });
});

describe('previewWatermarkText', () => {
  it('reads the contest name of 大赛设置 (as given) except on /module and for experts', () => {
    const name = '2026全国智慧医保大赛';
    expect(previewWatermarkText('/my-sign', 'USER', name)).toBe(name);
    expect(previewWatermarkText('/admin/home', 'SUPER_ADMIN', 'Smart Insurance Cup')).toBe('Smart Insurance Cup');
    expect(previewWatermarkText('/module', 'USER', name)).toBeNull();
    expect(previewWatermarkText('/module/x', 'USER', name)).toBe(name);
    expect(previewWatermarkText('/expert/index', 'EXPERT', name)).toBeNull();
  });
});
