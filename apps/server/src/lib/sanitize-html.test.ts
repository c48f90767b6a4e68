import { describe, expect, it } from 'vitest';
import { Parser } from 'htmlparser2';
import { NEUTRALISED, XSS_CORPUS } from '../../test/xss-corpus.js';
import { htmlToText, sanitizeHtml } from './sanitize-html.js';

describe('sanitizeHtml', () => {
  it('keeps allowed formatting as it was', () => {
    // The library writes declarations without the space after the colon.
    const html = '<h2>标题</h2><p style="text-align:center">正文 <strong>加粗</strong> <em>斜体</em></p><ul><li>一</li><li>二</li></ul>';
    expect(sanitizeHtml(html)).toBe(html);
    expect(sanitizeHtml('<p style="text-align: center">x</p>')).toBe('<p style="text-align:center">x</p>');
    expect(sanitizeHtml('<table><tbody><tr><td colspan="2">x</td></tr></tbody></table>')).toBe('<table><tbody><tr><td colspan="2">x</td></tr></tbody></table>');
  });

  it('returns empty text for empty input', () => {
    expect(sanitizeHtml('')).toBe('');
    expect(sanitizeHtml(null)).toBe('');
  });

  it.each(NEUTRALISED)('neutralises %s', (input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });

  it('escapes text and attribute values again', () => {
    expect(sanitizeHtml('1 &lt; 2 &amp;&amp; <b>3 > 2</b>')).toBe('1 &lt; 2 &amp;&amp; <b>3 &gt; 2</b>');
    expect(sanitizeHtml('<a href="https://a.example/?q=&quot;><script>" title="&quot;><script>">x</a>')).toBe(
      '<a href="https://a.example/?q=&quot;&gt;&lt;script&gt;" title="&quot;&gt;&lt;script&gt;" rel="noopener noreferrer">x</a>',
    );
  });

  it('keeps safe links with rel=noopener and only _blank targets', () => {
    expect(sanitizeHtml('<a href="https://www.nhsa.gov.cn/" target="_blank">医保局</a>')).toBe(
      '<a href="https://www.nhsa.gov.cn/" target="_blank" rel="noopener noreferrer">医保局</a>',
    );
    expect(sanitizeHtml('<a href="mailto:contest@example.com" target="_top">mail</a>')).toBe('<a href="mailto:contest@example.com" rel="noopener noreferrer">mail</a>');
    expect(sanitizeHtml('<a href="/sign-guide">guide</a>')).toBe('<a href="/sign-guide" rel="noopener noreferrer">guide</a>');
  });

  it('keeps our own and data images with their size', () => {
    expect(sanitizeHtml('<img src="/api/attachment/stream/AbC123?preview=1" alt="图" width="300" height="50%">')).toBe(
      '<img src="/api/attachment/stream/AbC123?preview=1" alt="图" width="300" height="50%" />',
    );
    expect(sanitizeHtml('<img src="data:image/png;base64,iVBORw0KGgo=" width="1e9">')).toBe('<img src="data:image/png;base64,iVBORw0KGgo=" />');
  });

  it('unwraps unknown tags and balances what is left open or closed twice', () => {
    expect(sanitizeHtml('<section><font color=red>x</font></section>')).toBe('x');
    expect(sanitizeHtml('<p><b>x')).toBe('<p><b>x</b></p>');
    expect(sanitizeHtml('<b>x</i></b></b>y')).toBe('<b>x</b>y');
    expect(sanitizeHtml('<ul><li><b>a</li><li>b</li></ul>')).toBe('<ul><li><b>a</b></li><li>b</li></ul>');
  });

  it('is stable: sanitising its own output changes nothing', () => {
    const once = sanitizeHtml('<p style="color:#f00;x:y">a<br/>b<img src="/api/attachment/stream/Abc"><a href="https://x.example">l</a></p><script>1</script>');
    expect(sanitizeHtml(once)).toBe(once);
  });
});

describe('htmlToText', () => {
  it('keeps only the text', () => {
    expect(htmlToText('<p>一 &amp; 二</p><script>alert(1)</script><p>三</p>')).toBe('一 & 二 三');
  });
});

/**
 * The XSS corpus (docs/rules/content.md, "Rich text"). Every entry is checked two ways: what it must become (where the
 * outcome is fixed) and, for all of them, a structural reading of the output by an HTML
 * tokenizer: only allowed tags and attributes, no event handler, no address with another scheme
 * than http(s), mailto or a site path, no style with anything but plain values.
 */
describe('sanitizeHtml against an XSS corpus', () => {
  const TAGS = new Set([
    'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'sub', 'sup',
    'blockquote', 'pre', 'code', 'ul', 'ol', 'li', 'a', 'img', 'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
    'span', 'div', 'figure', 'figcaption',
  ]);
  const ATTRS: Record<string, Set<string>> = {
    a: new Set(['href', 'title', 'target', 'rel', 'style']),
    img: new Set(['src', 'alt', 'title', 'width', 'height']),
    th: new Set(['colspan', 'rowspan', 'style']),
    td: new Set(['colspan', 'rowspan', 'style']),
  };
  const SAFE_URL = /^(https?:\/\/|mailto:|\/(?![/\\])|#)/i;
  const SAFE_IMG = /^(\/api\/attachment\/stream\/[A-Za-z0-9_-]+(\?[A-Za-z0-9_=&%.-]*)?|data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+)$/;

  /** Reads the output as a browser would tokenise it and lists every breach of the allow-list. */
  function breaches(html: string): string[] {
    const found: string[] = [];
    const parser = new Parser(
      {
        onopentag(name, attribs) {
          if (!TAGS.has(name)) found.push(`tag ${name}`);
          for (const [attr, value] of Object.entries(attribs)) {
            const allowed = ATTRS[name] ?? new Set(['style']);
            if (!allowed.has(attr)) found.push(`attribute ${name}.${attr}`);
            if (/^on/i.test(attr)) found.push(`handler ${name}.${attr}`);
            const url = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
            if (attr === 'href' && !SAFE_URL.test(url)) found.push(`href ${value}`);
            if (attr === 'src' && !SAFE_IMG.test(url)) found.push(`src ${value}`);
            if (attr === 'style' && /url\(|expression|javascript|@import|\\|position|behavior|-moz-binding/i.test(value)) found.push(`style ${value}`);
          }
        },
        oncomment() {
          found.push('comment');
        },
        oncdatastart() {
          found.push('cdata');
        },
        onprocessinginstruction(name) {
          found.push(`instruction ${name}`);
        },
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeCDATA: true },
    );
    parser.write(html);
    parser.end();
    return found;
  }


  it.each(XSS_CORPUS)('%s', (input, expected) => {
    const out = sanitizeHtml(input);
    if (expected !== null) expect(out).toBe(expected);
    expect(breaches(out)).toEqual([]);
    // Sanitising the output again changes nothing: nothing in it is waiting to be re-parsed.
    expect(sanitizeHtml(out)).toBe(out);
  });

  it('keeps the editor output: headings, lists, quotes, links and uploaded images', () => {
    const body =
      '<h2>通知</h2><p><strong>加粗</strong><em>斜体</em><a target="_blank" rel="noopener noreferrer nofollow" href="https://www.nhsa.gov.cn/">医保局</a></p>' +
      '<ul><li><p>一</p></li></ul><ol><li><p>二</p></li></ol><blockquote><p>引用</p></blockquote>' +
      '<img src="/api/attachment/stream/AbCdEf0123456789_-AbCd?preview=1" alt="图片">';
    expect(sanitizeHtml(body)).toBe(
      '<h2>通知</h2><p><strong>加粗</strong><em>斜体</em><a target="_blank" href="https://www.nhsa.gov.cn/" rel="noopener noreferrer">医保局</a></p>' +
        '<ul><li><p>一</p></li></ul><ol><li><p>二</p></li></ol><blockquote><p>引用</p></blockquote>' +
        '<img src="/api/attachment/stream/AbCdEf0123456789_-AbCd?preview=1" alt="图片" />',
    );
  });

  it('survives random markup soup without a breach', () => {
    const pieces = ['<', '>', '/', '"', "'", '=', ' ', 'a', 'img', 'script', 'svg', 'p', 'href', 'src', 'onerror', 'javascript:', '&#x09;', '&lt;', '<!--', '-->', 'style', 'url(', 'x'];
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 500; n++) {
      let input = '';
      for (let i = 0; i < 40; i++) input += pieces[Math.floor(next() * pieces.length)]!;
      const out = sanitizeHtml(input);
      expect(breaches(out), input).toEqual([]);
    }
  });
});
