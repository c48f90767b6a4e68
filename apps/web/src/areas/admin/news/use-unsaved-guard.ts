import { useCallback, useEffect, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../components/feedback';

/**
 * While the form is dirty, leaving the page asks first: another page of the app (a link, the
 * menu, a tab) through the router's blocker, a reload or a closed tab through the browser's own
 * prompt. `setDirty(false)` takes effect at once, so a save may navigate in the same tick.
 */
export function useUnsavedGuard(): { dirty: boolean; setDirty(dirty: boolean): void } {
  const { t } = useTranslation('newsAdmin');
  const { modal } = useFeedback();
  const [dirty, setDirtyState] = useState(false);
  const dirtyRef = useRef(false);
  const setDirty = useCallback((next: boolean) => {
    dirtyRef.current = next;
    setDirtyState(next);
  }, []);

  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirtyRef.current && currentLocation.pathname !== nextLocation.pathname);
  const current = useRef(blocker);
  current.current = blocker;

  // Once per blocked navigation: the blocker object is new on every render, its state is not.
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      title: t('edit.unsavedTitle'),
      content: t('edit.unsaved'),
      okText: t('edit.leave'),
      cancelText: t('edit.stay'),
      onOk: () => current.current.proceed?.(),
      onCancel: () => current.current.reset?.(),
    });
  }, [blocker.state, modal, t]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when a value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  return { dirty, setDirty };
}
