import { useTranslation } from 'react-i18next';
import './skip-link.css';

/** The id of each layout's `<main>`: the skip link's target and route focus's fallback. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * "跳到主要内容": the first focusable element of every layout, shown when focused, so keyboard
 * users pass the header and the menus in one step (WCAG 2.4.1). The click moves focus itself:
 * the hash alone would reach the router, not the focus.
 */
export function SkipLink({ targetId = MAIN_CONTENT_ID }: { targetId?: string }) {
  const { t } = useTranslation('common');
  return (
    <a
      className="skip-link"
      href={`#${targetId}`}
      data-testid="skip-link"
      onClick={(event) => {
        const target = document.getElementById(targetId);
        if (!target) return;
        event.preventDefault();
        if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
        target.focus();
      }}
    >
      {t('a11y.skipToMain')}
    </a>
  );
}
