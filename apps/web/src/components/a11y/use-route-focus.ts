import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { MAIN_CONTENT_ID } from './SkipLink';

/** Pages load lazily: the h1 is waited for this long before focus settles on main instead. */
const WAIT_STEP_MS = 50;
const WAIT_STEPS = 40;

/**
 * The key of the location last seen by any layout: shared, so moving from one area's layout to
 * another's (which mounts anew) still counts as a route change.
 */
let lastKey: string | null = null;

function focusTarget(element: HTMLElement): void {
  if (!element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  element.setAttribute('data-route-focus-target', '');
  element.focus({ preventScroll: true });
}

/**
 * After a client-side route change, focus goes to the new page's h1 (else to main), so a screen
 * reader announces the page and the next Tab starts in it (WCAG 2.4.3). It runs after the root
 * layout has set document.title, which is therefore current when the page is announced. The
 * first page load keeps the browser's own focus: 'default' is the key of the entry the document
 * opened on.
 */
export function useRouteFocus(mainId: string = MAIN_CONTENT_ID): void {
  const { key } = useLocation();
  useEffect(() => {
    const previous = lastKey;
    lastKey = key;
    if (previous === null || previous === key || key === 'default') return;
    const before = document.activeElement;
    let steps = 0;
    let timer: ReturnType<typeof setTimeout>;
    const attempt = () => {
      const main = document.getElementById(mainId);
      // The page moved focus itself (an autofocus field): leave it there.
      const active = document.activeElement;
      if (active && active !== before && active !== document.body && main?.contains(active)) return;
      const heading = main?.querySelector<HTMLElement>('h1');
      if (heading) return focusTarget(heading);
      if (steps++ < WAIT_STEPS) {
        timer = setTimeout(attempt, WAIT_STEP_MS);
        return;
      }
      if (main) focusTarget(main);
    };
    // A macrotask: after the root layout's title effect (effects run child-first) and the paint.
    timer = setTimeout(attempt, 0);
    return () => clearTimeout(timer);
  }, [key, mainId]);
}
