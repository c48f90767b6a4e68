import i18next from 'i18next';

/**
 * The contest name of 大赛设置 (`contest.name`, `contest.nameEn`) in every text (docs/decisions.md,
 * "English"): texts say `{{contestName}}`, which i18next fills from its default variables with the
 * name in the current language. Until GET /contest/public answers (or when it fails) the built-in
 * names stand: CONTEST_NAME_DEFAULT / CONTEST_NAME_EN_DEFAULT, copied because importing the shared
 * package's values here would put its modules into the home page's first load.
 */
export type ContestNames = { zh: string; en: string };

const BUILT_IN: ContestNames = { zh: '2025全国智慧医保大赛', en: '2025 National Smart Medical-Insurance Competition' };
let names: ContestNames = BUILT_IN;
const listeners = new Set<() => void>();

/** The name a page in `lng` shows: the English one on English pages, the Chinese one elsewhere. */
export const contestNameIn = (lng: string | undefined): string => (lng?.startsWith('en') ? names.en : names.zh);

export const contestNames = (): ContestNames => names;

/** Puts the current language's name into i18next's default variables (called on init and every switch). */
export function applyContestName(): void {
  const options = i18next.options?.interpolation;
  if (options) options.defaultVariables = { ...options.defaultVariables, contestName: contestNameIn(i18next.language) };
}
i18next.on('languageChanged', applyContestName);

/** Takes the names of a GET /contest/public answer; blank or missing ones keep what is there. */
export function rememberContestName(contest: { name?: unknown; nameEn?: unknown } | undefined): void {
  const pick = (v: unknown, old: string) => (typeof v === 'string' && v.trim() ? v.trim() : old);
  const next = { zh: pick(contest?.name, names.zh), en: pick(contest?.nameEn, names.en) };
  if (next.zh === names.zh && next.en === names.en) return;
  names = next;
  applyContestName();
  listeners.forEach((l) => l());
}

/** Back to the built-in names (tests: a fixture's name must not outlive its test). */
export function resetContestName(): void {
  rememberContestName({ name: BUILT_IN.zh, nameEn: BUILT_IN.en });
}

export function subscribeContestName(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
