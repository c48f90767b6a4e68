import { useEffect, useRef, type RefObject } from 'react';

/** How long a target that renders later (a remounted form, a lazily drawn record) is waited for. */
const WAIT_STEP_MS = 50;
const WAIT_STEPS = 40;

/**
 * Moves focus to what `find` returns once it exists (a heading gets tabindex -1 so it can take
 * focus), so that after the page replaced what was focused (the next record of a queue, a form
 * drawn anew after a submit) a screen reader says where the user is and the next Tab starts
 * there instead of at the top of the document (WCAG 2.4.3). Gives up quietly after ~2 s, and
 * leaves focus alone when the user moved it meanwhile. Returns a cancel function.
 */
export function moveFocusSoon(find: () => HTMLElement | null | undefined, { force = false }: { force?: boolean } = {}): () => void {
  const before = document.activeElement;
  let steps = 0;
  let timer: ReturnType<typeof setTimeout>;
  const attempt = () => {
    const active = document.activeElement;
    // Focus went somewhere on purpose (not lost to the body, not still where it was): leave it,
    // unless the caller knows the user's own action replaced what they were on (`force`).
    if (!force && active && active !== before && active !== document.body && active.isConnected) return;
    const target = find();
    if (target?.isConnected) {
      if (!target.hasAttribute('tabindex') && target.tabIndex < 0) target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: false });
      return;
    }
    if (steps++ < WAIT_STEPS) timer = setTimeout(attempt, WAIT_STEP_MS);
  };
  timer = setTimeout(attempt, 0);
  return () => clearTimeout(timer);
}

/** The first heading inside `root` (the record's title), else `root` itself. */
export function headingIn(root: HTMLElement | null): HTMLElement | null {
  return root?.querySelector<HTMLElement>('h1, h2, h3, h4, h5, h6, [role="heading"]') ?? root;
}

/**
 * Moves focus into `ref` (its first heading) whenever `key` changes after the first known value:
 * the record shown was replaced by another, or by a done message (`key` null). `undefined` is
 * "not known yet" (loading) and neither counts as a change nor sets the first value.
 */
export function useFocusOnChange(key: string | null | undefined, ref: RefObject<HTMLElement | null>): void {
  const previous = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (key === undefined) return;
    const last = previous.current;
    previous.current = key;
    if (last === undefined || last === key) return;
    // The user's decision or 跳过 replaced the record: whatever held focus in it is stale.
    return moveFocusSoon(() => headingIn(ref.current), { force: true });
  }, [key, ref]);
}
