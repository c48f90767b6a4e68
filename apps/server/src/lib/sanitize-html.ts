import { Parser } from 'htmlparser2';
import sanitize, { type Attributes, type IOptions } from 'sanitize-html';

/**
 * Allow-list HTML sanitiser for rich text (news bodies, site blocks, messages): docs/rules/content.md, "Rich text".
 * Built on the maintained sanitize-html library (docs/decisions.md, "News CMS and the sanitiser"): it tokenises with htmlparser2 (the
 * HTML5 tokenizer rules, entities decoded) and writes a new document from the allowed tags and
 * attributes only, every text and attribute value escaped again, so what a browser parses from
 * the output is what was checked here. The library does the tag, scheme and CSS work; the
 * checks below tighten what it cannot know about this site (which image paths are ours, which
 * values a size or a colour may take).
 */

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'strong', 'b', 'em', 'i', 'u', 's', 'del', 'sub', 'sup',
  'blockquote', 'pre', 'code', 'ul', 'ol', 'li', 'a', 'img',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  'span', 'div', 'figure', 'figcaption',
];

/**
 * Dropped with everything inside: their content is code, markup of another kind, or form state.
 * (Other unknown tags are unwrapped: their text stays.)
 */
const DROP_CONTENT_TAGS = [
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'noscript', 'noembed',
  'noframes', 'template', 'svg', 'math', 'textarea', 'select', 'option', 'title', 'head', 'xmp', 'plaintext', 'button',
];

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

/**
 * Images are our own public attachments (`/api/attachment/stream/<uniqueNo>`, the editor's
 * uploads with origin NEWS, `?preview=1` to show them inline) or small inline pictures. Other
 * hosts are refused: an outside image is a tracking pixel on every reader.
 */
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

const ATTRS: Record<string, Record<string, AttrCheck>> = {
  a: { href, title: text, target },
  img: { src: imgSrc, alt: text, title: text, width: size, height: size },
  th: { colspan: span, rowspan: span },
  td: { colspan: span, rowspan: span },
};
const NO_STYLE = new Set(['br', 'hr', 'img']);

const COLOR = /^(#[0-9a-f]{3,8}|rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(,\s*(0|1|0?\.\d{1,3})\s*)?\)|[a-z]{3,20})$/i;
/** Only a few declarations with plain values: no url(), no expression(), no positioning. */
const STYLES: Record<string, RegExp[]> = {
  'text-align': [/^(left|right|center|justify)$/i],
  color: [COLOR],
  'background-color': [COLOR],
  'font-weight': [/^(normal|bold|[1-9]00)$/i],
  'font-style': [/^(normal|italic)$/i],
  'text-decoration': [/^(none|underline|line-through)$/i],
};

/**
 * Every attribute passes its own check (the cleaned value replaces the raw one) or goes; links
 * that keep an address get rel=noopener. `style` is left to the library's CSS filter.
 */
function checkAttributes(tagName: string, attribs: Attributes): { tagName: string; attribs: Attributes } {
  const checks = ATTRS[tagName] ?? {};
  const out: Attributes = {};
  for (const [name, raw] of Object.entries(attribs)) {
    if (name === 'style') {
      if (!NO_STYLE.has(tagName)) out.style = raw;
      continue;
    }
    const value = Object.hasOwn(checks, name) ? checks[name]!(raw) : null;
    if (value != null) out[name] = value;
  }
  if (tagName === 'a' && out.href) out.rel = 'noopener noreferrer';
  return { tagName, attribs: out };
}

const OPTIONS: IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    '*': ['style'],
  },
  // A second gate behind the checks above: the library's own scheme reading (launder).
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['data'] },
  allowProtocolRelative: false,
  allowedStyles: { '*': STYLES },
  disallowedTagsMode: 'discard',
  nonTextTags: DROP_CONTENT_TAGS,
  selfClosing: ['img', 'br', 'hr'],
  transformTags: { '*': checkAttributes },
  // An image whose address was refused is no image at all (not an empty box).
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  parser: { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

export function sanitizeHtml(input: string | null | undefined): string {
  if (!input) return '';
  return sanitize(input, OPTIONS);
}

/** Text of an HTML fragment (for summaries and notifications), tags dropped, whitespace collapsed. */
export function htmlToText(input: string | null | undefined): string {
  if (!input) return '';
  const dropped = new Set(DROP_CONTENT_TAGS);
  let out = '';
  let dropDepth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (dropped.has(name)) dropDepth++;
        else if (name === 'br' || name === 'p' || name === 'li' || /^h[1-6]$/.test(name)) out += ' ';
      },
      onclosetag(name) {
        if (dropped.has(name) && dropDepth > 0) dropDepth--;
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
