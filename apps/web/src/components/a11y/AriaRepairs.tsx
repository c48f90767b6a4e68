import { useEffect } from 'react';
import { i18n } from '../../i18n';
import { announceFormErrors, ensureLiveRegion } from '../../lib/form-errors';
import { watchAriaRepairs } from './aria-repairs';

/**
 * A refused submit of an antd form (onFinish) shows its errors a moment after the submit event
 * (validation is asynchronous); then the wrong fields are counted and announced. ConfigProvider's
 * scrollToFirstError has moved focus to the first one by then.
 */
const VALIDATION_SETTLED_MS = 300;

/**
 * Mounted once inside the app's providers: keeps antd's tabs and scrolling tables accessible, and
 * has the page's live region ready before anything is announced (a region added together with its
 * text is not read by every screen reader).
 */
export function AriaRepairs() {
  useEffect(() => {
    ensureLiveRegion();
    const stop = watchAriaRepairs(document.body, () => i18n.t('common:a11y.scrollRegion'));
    const onSubmit = (event: Event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.classList.contains('ant-form')) return;
      setTimeout(() => {
        if (form.isConnected) announceFormErrors(form.querySelectorAll('.ant-form-item-has-error').length);
      }, VALIDATION_SETTLED_MS);
    };
    document.addEventListener('submit', onSubmit, true);
    return () => {
      stop();
      document.removeEventListener('submit', onSubmit, true);
    };
  }, []);
  return null;
}
