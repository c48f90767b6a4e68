/**
 * Characters no request text may hold (docs/security.md, "Input hygiene"). One rule for every
 * field, rich-text bodies included; the server refuses any request part holding one
 * (apps/server/src/plugins/zod.ts) with VALIDATION_MSG.controlCharacters.
 *
 * - C0 controls but tab, LF and CR (NUL among them: PostgreSQL text cannot store it), DEL, and
 *   C1 controls U+0080-U+009F: invisible, and they garble logs, exports and terminals.
 * - Bidirectional overrides and isolates U+202A-U+202E, U+2066-U+2069: they make a name read
 *   backwards ("gnp.exe" shown as "exe.png").
 * - Zero-width characters U+200B-U+200D, U+2060 and U+FEFF (BOM): two names that look the same
 *   would differ. U+200D (ZWJ) is refused too, although it joins emoji sequences (family,
 *   profession emoji): a contest portal's fields do not need them, and one rule is simpler than
 *   an exception that lets invisible joiners through everywhere else. Single emoji are kept.
 * - Line and paragraph separators U+2028, U+2029: line breaks most programs do not show as
 *   such, and a break inside JavaScript string literals of older engines.
 * - Tag characters U+E0000-U+E007F: invisible text (used to hide instructions in names), and
 *   subdivision flags, which the portal does not need.
 * - Lone surrogates: JSON "\uD800" parses to a string no UTF-8 column can store (PostgreSQL
 *   would keep U+FFFD instead, silently changing what was sent). With the `u` flag the class
 *   below matches only a surrogate that is not half of a pair.
 */
export const FORBIDDEN_TEXT =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200d\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff\u{e0000}-\u{e007f}\ud800-\udfff]/u;

/** True when `text` holds a character of FORBIDDEN_TEXT. */
export function hasForbiddenText(text: string): boolean {
  return FORBIDDEN_TEXT.test(text);
}
