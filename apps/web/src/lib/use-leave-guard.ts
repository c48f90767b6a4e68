import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { useFeedback } from '../components/feedback';

export interface LeaveGuardTexts {
  title: string;
  content: string;
  okText: string;
  cancelText: string;
}

/**
 * While `isDirty()` holds, leaving the page asks first: another page of the app (a link, the
 * menu, a tab, 上一个 / 下一个) through the router's blocker, a reload or a closed tab through the
 * browser's own prompt. `isDirty` is read at the moment of leaving, so a caller that keeps the
 * flag in a ref may clear it and navigate in the same tick (a save that moves on).
 */
export function useLeaveGuard(isDirty: () => boolean, dirtyNow: boolean, texts: LeaveGuardTexts): void {
  const { modal } = useFeedback();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => isDirty() && currentLocation.pathname !== nextLocation.pathname);
  const current = useRef(blocker);
  current.current = blocker;
  const shown = useRef(texts);
  shown.current = texts;

  // Once per blocked navigation: the blocker object is new on every render, its state is not.
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      ...shown.current,
      onOk: () => current.current.proceed?.(),
      onCancel: () => current.current.reset?.(),
    });
  }, [blocker.state, modal]);

  useEffect(() => {
    if (!dirtyNow) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when a value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirtyNow]);
}
