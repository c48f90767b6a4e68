import { Parser } from 'htmlparser2';

/**
 * Allow-list HTML sanitiser for rich text (news bodies, site blocks, messages): product.md 8.
 * It never repairs or passes through what it does not know: the input is tokenised by
 * htmlparser2 (the HTML5 tokenizer rules, entities decoded), and a new document is written from
 * the allowed tags and attributes only, every text and attribute value escaped again. So what
 * a browser parses from the output is exactly what was checked here.
 */

const VOID_TAGS = new Set(['br', 'hr', 'img']);

const ALLOWED_TAGS = new Set([
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'strong', 'b', 'em', 'i', 'u', 's', 'del', 'sub', 'sup',
  'blockquote', 'pre', 'code', 'ul', 'ol', 'li', 'a', 'img',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  'span', 'div', 'figure', 'figcaption',
]);

/** Dropped with everything inside: their content is code, markup of another kind, or form state. */
const DROP_CONTENT_TAGS = new Set([
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'noscript', 'noembed',
  'noframes', 'template', 'svg', 'math', 'textarea', 'select', 'title', 'head', 'xmp', 'plaintext', 'button',
]);

type AttrCheck = (value: string) => string | null;

// Browsers drop ASCII whitespace and control characters from URLs before reading the scheme
// (`java\tscript:`), so the check looks at the URL the same way.
const cleanUrl = (value: string) => value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');

const href: AttrCheck = (value) => {
  const url = cleanUrl(value);
  if (/^(https?:\/\/|mailto:)/i.test(url)) return url;
  // Site-relative paths and anchors; `//host` and `/\host` would leave the site, so they go.
  if (/^\/(?![/\\])/.test(url) || url.startsWith('#')) return url;
  return null;
};

const STREAM_SRC = /^\/api\/attachment\/stream\/[A-Za-z0-9_-]{1,64}(\?[A-Za-z0-9_=&%.-]{0,200})?$/;
const DATA_IMAGE_SRC = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/i;

const imgSrc: AttrCheck = (value) => {
  const url = cleanUrl(value);
  return STREAM_SRC.test(url) || DATA_IMAGE_SRC.test(url) ? url : null;
};

const size: AttrCheck = (value) => (/^\d{1,4}(px|%)?$/.test(value.trim()) ? value.trim() : null);
const span: AttrCheck = (value) => (/^\d{1,3}$/.test(value.trim()) ? value.trim() : null);
const text: AttrCheck = (value) => value.slice(0, 500);
const target: AttrCheck = (value) => (value.trim() === '_blank' ? '_blank' : null);

const COLOR = /^(#[0-9a-f]{3,8}|rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(,\s*(0|1|0?\.\d{1,3})\s*)?\)|[a-z]{3,20})$/i;
const STYLE_RULES: Record<string, RegExp> = {
  'text-align': /^(left|right|center|justify)$/i,
  color: COLOR,
  'background-color': COLOR,
  'font-weight': /^(normal|bold|[1-9]00)$/i,
  'font-style': /^(normal|italic)$/i,
  'text-decoration': /^(none|underline|line-through)$/i,
};

/** Only a few declarations with plain values: no url(), no expression(), no positioning. */
const style: AttrCheck = (value) => {
  const kept: string[] = [];
  for (const declaration of value.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const prop = declaration.slice(0, colon).trim().toLowerCase();
    const val = declaration.slice(colon + 1).trim();
    const rule = STYLE_RULES[prop];
    if (rule && rule.test(val)) kept.push(`${prop}: ${val}`);
  }
  return kept.length ? kept.join('; ') : null;
};

const ATTRS: Record<string, Record<string, AttrCheck>> = {
  a: { href, title: text, target },
  img: { src: imgSrc, alt: text, title: text, width: size, height: size },
  th: { colspan: span, rowspan: span },
  td: { colspan: span, rowspan: span },
};
const NO_STYLE = new Set(['br', 'hr', 'img']);

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function writeAttributes(tag: string, attribs: Record<string, string>): string {
  const checks = ATTRS[tag] ?? {};
  let out = '';
  for (const [name, raw] of Object.entries(attribs)) {
    const check = name === 'style' && !NO_STYLE.has(tag) ? style : Object.hasOwn(checks, name) ? checks[name] : undefined;
    const value = check?.(raw);
    if (value != null) out += ` ${name}="${escapeHtml(value)}"`;
  }
  if (tag === 'a' && out.includes(' href="')) out += ' rel="noopener noreferrer"';
  return out;
}

export function sanitizeHtml(input: string | null | undefined): string {
  if (!input) return '';
  let out = '';
  const open: string[] = [];
  let dropDepth = 0;

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (dropDepth > 0) {
          if (DROP_CONTENT_TAGS.has(name)) dropDepth++;
          return;
        }
        if (DROP_CONTENT_TAGS.has(name)) {
          dropDepth = 1;
          return;
        }
        if (!ALLOWED_TAGS.has(name)) return;
        if (name === 'img' && !imgSrc(attribs.src ?? '')) return;
        out += `<${name}${writeAttributes(name, attribs)}>`;
        if (!VOID_TAGS.has(name)) open.push(name);
      },
      onclosetag(name) {
        if (dropDepth > 0) {
          if (DROP_CONTENT_TAGS.has(name)) dropDepth--;
          return;
        }
        if (!ALLOWED_TAGS.has(name) || VOID_TAGS.has(name)) return;
        const at = open.lastIndexOf(name);
        if (at < 0) return;
        // Close whatever is still open inside it, so the output is always balanced.
        while (open.length > at) out += `</${open.pop()}>`;
      },
      ontext(data) {
        if (dropDepth === 0) out += escapeHtml(data);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  parser.write(input);
  parser.end();
  while (open.length) out += `</${open.pop()}>`;
  return out;
}

/** Text of an HTML fragment (for summaries and notifications), tags dropped, whitespace collapsed. */
export function htmlToText(input: string | null | undefined): string {
  if (!input) return '';
  let out = '';
  let dropDepth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (DROP_CONTENT_TAGS.has(name)) dropDepth++;
        else if (name === 'br' || name === 'p' || name === 'li' || /^h[1-6]$/.test(name)) out += ' ';
      },
      onclosetag(name) {
        if (DROP_CONTENT_TAGS.has(name) && dropDepth > 0) dropDepth--;
      },
      ontext(data) {
        if (dropDepth === 0) out += data;
      },
    },
    { decodeEntities: true },
  );
  parser.write(input);
  parser.end();
  return out.replace(/\s+/g, ' ').trim();
}
