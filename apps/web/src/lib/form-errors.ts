import type { FormInstance } from 'antd';
import { i18n } from '../i18n';

/** What antd's validateFields rejects with when fields are wrong. */
interface ValidateError {
  errorFields: { name: (string | number)[]; errors: string[] }[];
}

const isValidateError = (e: unknown): e is ValidateError =>
  typeof e === 'object' && e !== null && Array.isArray((e as Partial<ValidateError>).errorFields);

/**
 * antd writes a field's error a moment after validation settles (its error list is debounced by a
 * timer); focusing before that, a screen reader would read the field without its message.
 */
const ERRORS_DRAWN_MS = 60;

let liveRegion: HTMLElement | null = null;

/** The page's polite live region (created on first use; <AriaRepairs /> creates it at start). */
export function ensureLiveRegion(): HTMLElement {
  if (!liveRegion || !liveRegion.isConnected) {
    liveRegion = document.createElement('div');
    liveRegion.setAttribute('role', 'status');
    liveRegion.setAttribute('aria-live', 'polite');
    liveRegion.className = 'sr-only';
    liveRegion.dataset.testid = 'live-region';
    document.body.append(liveRegion);
  }
  return liveRegion;
}

/** Has screen readers say `message` politely (the same message twice is said twice). */
export function announce(message: string): void {
  const region = ensureLiveRegion();
  region.textContent = '';
  setTimeout(() => {
    region.textContent = message;
  }, ERRORS_DRAWN_MS);
}

/** The polite "N fields need attention" of a refused submit. */
export function announceFormErrors(count: number): void {
  if (count > 0) announce(i18n.t('common:a11y.formErrors', { count }));
}

/**
 * After a refused `form.validateFields()`: moves focus to the first wrong field (scrolled into the
 * middle of the view), whose error is then read with it (antd points its aria-describedby at the
 * message), and announces how many fields need attention (WCAG 3.3.1, 4.1.3). Answers whether
 * `error` was such a refusal (anything else is the caller's to handle).
 */
export function focusFirstError(form: Pick<FormInstance, 'scrollToField'>, error: unknown): boolean {
  if (!isValidateError(error) || !error.errorFields.length) return false;
  const first = error.errorFields[0]!.name;
  setTimeout(() => form.scrollToField(first, { focus: true, block: 'center' }), ERRORS_DRAWN_MS);
  announceFormErrors(error.errorFields.length);
  return true;
}

/** validateFields's arguments: options alone, or the fields to check and options. */
type ValidateArgs = Parameters<FormInstance['validateFields']> | [options?: { recursive?: boolean; validateOnly?: boolean; dirty?: boolean }];

/**
 * `form.validateFields(...)` for forms checked by hand (dialogs, steps, drafts): the same answer
 * and the same refusal, with focus on the first wrong field and the count announced.
 */
export async function validateAndFocus<V>(form: FormInstance<V>, ...args: ValidateArgs): Promise<V> {
  try {
    return await (form.validateFields as (...a: ValidateArgs) => Promise<V>)(...args);
  } catch (e) {
    focusFirstError(form, e);
    throw e;
  }
}
