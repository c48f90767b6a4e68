import { describe, expect, it } from 'vitest';
import { hasForbiddenText } from './text-rules.js';

describe('hasForbiddenText (docs/security.md, "Input hygiene")', () => {
  it.each([
    ['C0 BEL', 'a\u0007'],
    ['DEL', 'a\u007f'],
    ['C1 U+0085', 'a\u0085'],
    ['C1 U+009F', 'a\u009f'],
    ['zero-width space', 'a\u200bb'],
    ['ZWJ', '\u{1F468}\u200d\u{1F4BB}'],
    ['word joiner', 'a\u2060b'],
    ['BOM', '\ufeffa'],
    ['line separator', 'a\u2028b'],
    ['paragraph separator', 'a\u2029b'],
    ['bidi override', '\u202egnp.exe'],
    ['bidi isolate', 'a\u2069'],
    ['tag character', 'a\u{E0001}'],
    ['tag range end', 'a\u{E007F}'],
    ['lone high surrogate', 'a\ud800'],
    ['lone low surrogate', '\udc00a'],
    ['reversed pair', '\ude00\ud83d'],
  ])('refuses %s', (_what, text) => expect(hasForbiddenText(text)).toBe(true));

  it.each([
    ['tab and line breaks', '第一行\r\n第二行\t缩进'],
    ['an emoji (a surrogate pair)', '医保 \u{1F600} \u{1F3E5}'],
    ['Hebrew and Arabic', 'עברית العربية'],
    ['full-width punctuation', '（智慧医保）—“大赛”'],
    ['NBSP and U+FFFD', 'a\u00a0b\ufffd'],
  ])('keeps %s', (_what, text) => expect(hasForbiddenText(text)).toBe(false));
});
