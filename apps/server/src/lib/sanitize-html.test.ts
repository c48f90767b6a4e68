import { describe, expect, it } from 'vitest';
import { htmlToText, sanitizeHtml } from './sanitize-html.js';

describe('sanitizeHtml', () => {
  it('keeps allowed formatting as it was', () => {
    const html = '<h2>标题</h2><p style="text-align: center">正文 <strong>加粗</strong> <em>斜体</em></p><ul><li>一</li><li>二</li></ul>';
    expect(sanitizeHtml(html)).toBe(html);
    expect(sanitizeHtml('<table><tbody><tr><td colspan="2">x</td></tr></tbody></table>')).toBe('<table><tbody><tr><td colspan="2">x</td></tr></tbody></table>');
  });

  it('returns empty text for empty input', () => {
    expect(sanitizeHtml('')).toBe('');
    expect(sanitizeHtml(null)).toBe('');
  });

  it.each([
    ['<script>alert(1)</script>ok', 'ok'],
    ['<SCRIPT SRC=//evil/x.js></SCRIPT>ok', 'ok'],
    ['<img src=x onerror=alert(1)>', ''],
    ['<img src="/api/attachment/stream/abcDEF_-123" onerror="alert(1)">', '<img src="/api/attachment/stream/abcDEF_-123">'],
    ['<svg onload=alert(1)><circle/></svg>ok', 'ok'],
    ['<svg><script>alert(1)</script></svg>', ''],
    ['<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', ''],
    ['<iframe src="javascript:alert(1)"></iframe>', ''],
    ['<body onload=alert(1)>x</body>', 'x'],
    ['<p onclick="alert(1)" class="c" id="i">x</p>', '<p>x</p>'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java\tscript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href=" &#106;avascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="&#x6A;&#x61;&#x76;&#x61;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>', '<a>x</a>'],
    ['<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
    ['<a href="//evil.example/x">x</a>', '<a>x</a>'],
    ['<a href="/\\evil.example">x</a>', '<a>x</a>'],
    ['<img src="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=">', ''],
    ['<img src="https://evil.example/track.png">', ''],
    ['<img src="/api/attachment/stream/x/../../admin">', ''],
    ['<p style="background:url(javascript:alert(1))">x</p>', '<p>x</p>'],
    ['<p style="color: expression(alert(1))">x</p>', '<p>x</p>'],
    ['<p style="position:fixed;top:0;color:red">x</p>', '<p style="color: red">x</p>'],
    ['<object data="x.swf"></object><embed src="x.swf">ok', 'ok'],
    ['<form action="/x"><input name="a"><button>go</button></form>ok', 'ok'],
    ['<!-- <script>alert(1)</script> -->ok', 'ok'],
    ['<![CDATA[<script>alert(1)</script>]]>ok', 'ok'],
    ['<style>body{display:none}</style>ok', 'ok'],
    ['<textarea><img src=x onerror=alert(1)></textarea>ok', 'ok'],
    ['<noscript><p title="</noscript><img src=x onerror=alert(1)>">', ''],
    ['<xmp><img src=x onerror=alert(1)></xmp>ok', 'ok'],
    ['<meta http-equiv="refresh" content="0;url=javascript:alert(1)">ok', 'ok'],
    ['<base href="https://evil.example/">ok', 'ok'],
    ['<link rel="stylesheet" href="https://evil.example/x.css">ok', 'ok'],
  ])('neutralises %s', (input, expected) => {
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
      '<img src="/api/attachment/stream/AbC123?preview=1" alt="图" width="300" height="50%">',
    );
    expect(sanitizeHtml('<img src="data:image/png;base64,iVBORw0KGgo=" width="1e9">')).toBe('<img src="data:image/png;base64,iVBORw0KGgo=">');
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
