import { useEffect, useSyncExternalStore } from 'react';

/**
 * A page whose title comes from data (the /module page is named by the user's
 * dataDocMenuName) lends it to document.title here. Effects run child-first,
 * so a page cannot simply set document.title: the root layout's own effect would overwrite it.
 */
let override: string | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The current page's title replaces the route's static one while the page is mounted. */
export function usePageTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (!title) return;
    override = title;
    emit();
    return () => {
      if (override === title) {
        override = null;
        emit();
      }
    };
  }, [title]);
}

/** The title a page lent, if any (read by the root layout). */
export function usePageTitleOverride(): string | null {
  return useSyncExternalStore(subscribe, () => override, () => null);
}
