import { ROUND_NAMES, TEMPLATE_EVENTS, type ReviewRound } from '@contest/shared';
import { i18n } from '../../../i18n';

/**
 * The fallback for system notices stored before messages kept their event (docs/decisions.md,
 * "English"): newer ones come with the server's English (`InboxMessage.en`). Such an old message
 * has only its rendered title and body, so the kind of notice is recognised by its default
 * template (TEMPLATE_EVENTS): the subject names it, the body gives its variables back. A notice
 * whose template was edited in 模板管理, or one of the results notices (whose variables are
 * Chinese sentences), matches nothing and shows as sent.
 */
const NOTICE_CODES = [
  'TEAM_SUBMITTED',
  'TEAM_APPROVED',
  'TEAM_REVISING',
  'TEAM_REJECTED',
  'TEAM_DRAFT_REMIND',
  'PRELIM_SUBMITTED',
  'PRELIM_APPROVED',
  'PRELIM_REVISING',
  'PRELIM_REJECTED',
  'PRELIM_DRAFT_REMIND',
  'FINAL_PROMOTED',
  'FEEDBACK_REPLIED',
  'APPEAL_RECEIVED',
  'APPEAL_REJECTED',
  'APPEAL_ACCEPTED',
] as const;
type NoticeCode = (typeof NOTICE_CODES)[number];

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The default text with each `{variable}` as a named group. */
const patternOf = (template: string) =>
  new RegExp(`^${template.split(/\{(\w+)\}/).map((part, i) => (i % 2 ? `(?<${part}>[\\s\\S]*?)` : escapeRe(part))).join('')}$`);

const NOTICES = NOTICE_CODES.map((code) => {
  const { subject, body } = TEMPLATE_EVENTS[code].defaults;
  return { code, subject, body: patternOf(body) };
});

const ROUND_OF = new Map<string, ReviewRound>((Object.entries(ROUND_NAMES) as [ReviewRound, string][]).map(([round, name]) => [name, round]));

/** The plain text of a stored in-site body (escaped text, lines as <br>). */
function plainOf(html: string): string {
  const text = html.replace(/<br\s*\/?>/gi, '\n');
  return new DOMParser().parseFromString(text, 'text/html').body.textContent ?? text;
}

const english = () => (i18n.resolvedLanguage ?? i18n.language ?? '').startsWith('en');

/** The title of a system notice on English pages; null: show it as sent. */
export function noticeTitle(title: string): string | null {
  if (!english()) return null;
  const notice = NOTICES.find((n) => n.subject === title);
  return notice ? i18n.t(`participant:inbox.notices.${notice.code as NoticeCode}.title`) : null;
}

/** The body of a system notice on English pages, as plain text; null: show it as sent. */
export function noticeBody(title: string, html: string): string | null {
  if (!english()) return null;
  const plain = plainOf(html);
  for (const notice of NOTICES) {
    if (notice.subject !== title) continue;
    const match = notice.body.exec(plain);
    if (!match) continue;
    const vars: Record<string, string> = { ...match.groups };
    const round = vars.round === undefined ? undefined : ROUND_OF.get(vars.round);
    if (round) vars.round = i18n.t(`participant:inbox.rounds.${round}`);
    // Variables are data, not markup: the page renders the result as text.
    return String(i18n.t(`participant:inbox.notices.${notice.code}.body` as never, { ...vars, interpolation: { escapeValue: false } } as never));
  }
  return null;
}
