import { describe, expect, it } from 'vitest';
import { Parser } from 'htmlparser2';
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

  it.each([
    ['<script>alert(1)</script>ok', 'ok'],
    ['<SCRIPT SRC=//evil/x.js></SCRIPT>ok', 'ok'],
    ['<img src=x onerror=alert(1)>', ''],
    ['<img src="/api/attachment/stream/abcDEF_-123" onerror="alert(1)">', '<img src="/api/attachment/stream/abcDEF_-123" />'],
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
    ['<p style="position:fixed;top:0;color:red">x</p>', '<p style="color:red">x</p>'],
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
 * The XSS corpus (issue 12). Every entry is checked two ways: what it must become (where the
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

  // [input, exact output or null when only the structural reading applies]
  const CORPUS: [string, string | null][] = [
    // Script tags, in every spelling.
    ['<script>alert(1)</script>', ''],
    ['<ScRiPt>alert(1)</sCrIpT>a', 'a'],
    ['<script src="https://evil.example/x.js"></script>a', 'a'],
    ['<script>/*</script><script>*/alert(1)</script>a', 'a'],
    ['<scr<script>ipt>alert(1)</script>a', null],
    ['<<script>script>alert(1)//<</script>/script>', null],
    ['<script\x20type="text/javascript">alert(1);</script>', ''],
    ['<script/xss src="https://evil.example/x.js"></script>a', 'a'],
    ['<p>a<script>document.write("<img src=x onerror=alert(1)>")</script>b</p>', '<p>ab</p>'],
    ['&lt;script&gt;alert(1)&lt;/script&gt;', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    // Event handlers on allowed and unknown tags.
    ['<p onmouseover="alert(1)">x</p>', '<p>x</p>'],
    ['<P ONCLICK=alert(1)>x</P>', '<p>x</p>'],
    ['<a href="/x" onfocus="alert(1)" autofocus>x</a>', '<a href="/x" rel="noopener noreferrer">x</a>'],
    ['<img src="/api/attachment/stream/Abc" onload=alert(1) onerror=alert(2)>', '<img src="/api/attachment/stream/Abc" />'],
    ['<div/onclick=alert(1)>x</div>', '<div>x</div>'],
    ['<span onpointerenter=alert(1) style="color:red">x</span>', '<span style="color:red">x</span>'],
    ['<details open ontoggle=alert(1)>x</details>', 'x'],
    ['<body onload=alert(1)>', ''],
    ['<video><source onerror="alert(1)"></video>a', 'a'],
    ['<input autofocus onfocus=alert(1)>a', 'a'],
    ['<marquee onstart=alert(1)>x</marquee>', 'x'],
    // javascript:, vbscript:, data: addresses, obfuscated.
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="JAVASCRIPT:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java&#x09;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java&#x0A;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java&#x0D;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java&#9;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="jav&#x61;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>', '<a>x</a>'],
    ['<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>', '<a>x</a>'],
    ['<a href="javascript&colon;alert(1)">x</a>', '<a>x</a>'],
    ['<a href="  javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="\x01javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="javascript\u0000:alert(1)">x</a>', '<a>x</a>'],
    ['<a href=javascript:alert(1)>x</a>', '<a>x</a>'],
    ['<a href=`javascript:alert(1)`>x</a>', '<a>x</a>'],
    ['<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
    ['<a href="livescript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="data:text/html,<script>alert(1)</script>">x</a>', '<a>x</a>'],
    ['<a href="DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>', '<a>x</a>'],
    ['<a href="data:image/png;base64,iVBORw0KGgo=">x</a>', '<a>x</a>'],
    ['<a href="file:///etc/passwd">x</a>', '<a>x</a>'],
    ['<a href="relative:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="x.html">x</a>', '<a>x</a>'],
    ['<a href="\\\\evil.example">x</a>', '<a>x</a>'],
    ['<a href="https://nhsa.gov.cn/a?b=1&amp;c=2#d">x</a>', '<a href="https://nhsa.gov.cn/a?b=1&amp;c=2#d" rel="noopener noreferrer">x</a>'],
    ['<img src="javascript:alert(1)">', ''],
    ['<img src="JaVaScRiPt:alert(1)">', ''],
    ['<img src="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">', ''],
    ['<img src="data:image/svg+xml,<svg onload=alert(1)>">', ''],
    ['<img src="data:image/png;base64,iVBORw0KGgo=<script>">', ''],
    ['<img src="//evil.example/x.png">', ''],
    ['<img src="http://evil.example/x.png">', ''],
    ['<img src="/api/attachment/stream/Abc?preview=1&quot; onerror=&quot;alert(1)">', ''],
    ['<img src="/api/attachment/stream/Abc" srcset="javascript:alert(1) 1x">', '<img src="/api/attachment/stream/Abc" />'],
    ['<img dynsrc="javascript:alert(1)" lowsrc="javascript:alert(1)" src="/api/attachment/stream/Abc">', '<img src="/api/attachment/stream/Abc" />'],
    ['<img src=/api/attachment/stream/Abc?preview=1 alt=x>', '<img src="/api/attachment/stream/Abc?preview=1" alt="x" />'],
    // svg and math: dropped whole, whatever they hold.
    ['<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">x</text></a></svg>ok', 'ok'],
    ['<svg><animate onbegin=alert(1) attributeName=x dur=1s>', ''],
    ['<svg><set attributeName="href" to="javascript:alert(1)"/></svg>ok', 'ok'],
    ['<svg><foreignObject><p onclick=alert(1)>x</p></foreignObject></svg>ok', 'ok'],
    ['<svg><style>*{x:expression(alert(1))}</style></svg>ok', 'ok'],
    ['<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>ok', 'ok'],
    ['<math href="javascript:alert(1)">x</math>ok', 'ok'],
    ['<math><mi xlink:href="data:x,<script>alert(1)</script>">', ''],
    ['<svg><![CDATA[><image xlink:href="]]><img src=x onerror=alert(1)//"></svg>', null],
    // Style: expressions, urls, imports, escapes.
    ['<p style="width: expression(alert(1))">x</p>', '<p>x</p>'],
    ['<p style="color: red; background-image: url(javascript:alert(1))">x</p>', '<p style="color:red">x</p>'],
    ['<p style="background:url(&quot;javascript:alert(1)&quot;)">x</p>', '<p>x</p>'],
    ['<p style="color: expr/**/ession(alert(1))">x</p>', '<p>x</p>'],
    ['<p style="color: \\65 xpression(alert(1))">x</p>', '<p>x</p>'],
    ['<p style="behavior: url(x.htc)">x</p>', '<p>x</p>'],
    ['<p style="-moz-binding: url(x.xml#xss)">x</p>', '<p>x</p>'],
    ['<p style="color: red}</style><script>alert(1)</script>">x</p>', '<p>x</p>'],
    ['<p style="@import \'https://evil.example/x.css\'">x</p>', '<p>x</p>'],
    ['<p style="color:rgb(1,2,3);font-weight:bold;text-decoration:underline">x</p>', '<p style="color:rgb(1,2,3);font-weight:bold;text-decoration:underline">x</p>'],
    ['<style>@import "https://evil.example/x.css";</style>ok', 'ok'],
    ['<link rel=import href="https://evil.example/x.html">ok', 'ok'],
    // srcdoc, frames and plugins.
    ['<iframe srcdoc="<script>alert(1)</script>"></iframe>ok', 'ok'],
    ['<iframe srcdoc="&lt;img src=x onerror=alert(1)&gt;">', ''],
    ['<p srcdoc="<script>alert(1)</script>">x</p>', '<p>x</p>'],
    ['<frameset><frame src="javascript:alert(1)"></frameset>ok', 'ok'],
    ['<object data="javascript:alert(1)"><param name=x value=y></object>ok', 'ok'],
    ['<embed src="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">ok', 'ok'],
    ['<applet code="x.class">x</applet>ok', 'ok'],
    ['<portal src="https://evil.example"></portal>ok', 'ok'],
    // Forms and their actions.
    ['<form action="javascript:alert(1)"><input type=submit></form>ok', 'ok'],
    ['<form><button formaction="javascript:alert(1)">x</button></form>ok', 'ok'],
    ['<isindex action="javascript:alert(1)" type=image>ok', 'ok'],
    ['<input type="image" src="javascript:alert(1)">ok', 'ok'],
    ['<select><option>&lt;script&gt;</option></select>ok', 'ok'],
    ['<textarea></textarea><script>alert(1)</script>', ''],
    ['<keygen autofocus onfocus=alert(1)>ok', 'ok'],
    // Unclosed and broken tags.
    ['<p><a href="/x">x', '<p><a href="/x" rel="noopener noreferrer">x</a></p>'],
    ['<img src="/api/attachment/stream/Abc" onerror="alert(1)"', ''],
    ['<a href="/x" title="x" onclick="alert(1)', ''],
    ['<p title="a>b">x</p>', '<p>x</p>'],
    ['<a title="&quot; onmouseover=&quot;alert(1)">x</a>', '<a title="&quot; onmouseover=&quot;alert(1)">x</a>'],
    // htmlparser2 reads a lone `</p>` as an empty paragraph, as browsers do, and a tag cut off at the end as text.
    ['<script', null],
    ['<p>x</p></script><script>alert(1)', '<p>x</p>'],
    ['<b <script>alert(1)</script>>x</b>', null],
    ['<div><div><div><script>alert(1)', '<div><div><div></div></div></div>'],
    ['</p><p>x', '<p></p><p>x</p>'],
    ['<table><tr><td>a<script>alert(1)</script></td></tr>', null],
    // Comments, CDATA, doctype, processing instructions.
    ['<!--<img src=x onerror=alert(1)>-->ok', 'ok'],
    ['<!-- --!><img src=x onerror=alert(1)> -->ok', null],
    ['<!--[if IE]><script>alert(1)</script><![endif]-->ok', 'ok'],
    ['<!--x--><p>ok</p>', '<p>ok</p>'],
    ['<![CDATA[<img src=x onerror=alert(1)>]]>ok', null],
    ['<!DOCTYPE html><p>ok</p>', '<p>ok</p>'],
    ['<?xml version="1.0"?><p>ok</p>', '<p>ok</p>'],
    ['<?php echo 1 ?>ok', null],
    // Other dangerous or foreign tags.
    ['<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', ''],
    ['<base href="javascript:alert(1)//">ok', 'ok'],
    ['<template><script>alert(1)</script></template>ok', 'ok'],
    ['<noscript><img src=x onerror=alert(1)></noscript>ok', 'ok'],
    ['<noembed><img src=x onerror=alert(1)></noembed>ok', 'ok'],
    ['<xss id=x tabindex=1 onfocus=alert(1)></xss>ok', 'ok'],
    ['<custom-element onclick=alert(1)>x</custom-element>', 'x'],
    ['<p class="x" id="y" data-x="1" contenteditable>x</p>', '<p>x</p>'],
    ['<a href="/x" target="_self" download>x</a>', '<a href="/x" rel="noopener noreferrer">x</a>'],
    ['<a href="/x" rel="opener">x</a>', '<a href="/x" rel="noopener noreferrer">x</a>'],
    ['<td colspan="2 onclick=alert(1)">x</td>', null],
  ];

  it.each(CORPUS)('%s', (input, expected) => {
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
