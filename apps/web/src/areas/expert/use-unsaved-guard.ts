import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../components/feedback';

/**
 * While `dirty`, leaving the page asks first: another page of the app (a link, the menu, 上一个 /
 * 下一个) through the router's blocker, a reload or a closed tab through the browser's own prompt.
 */
export function useUnsavedGuard(dirty: boolean): void {
  const { t } = useTranslation('expert');
  const { modal } = useFeedback();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);

  const current = useRef(blocker);
  current.current = blocker;

  // Once per blocked navigation: the blocker object is new on every render, its state is not.
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      title: t('form.unsavedTitle'),
      content: t('form.unsaved'),
      okText: t('form.leave'),
      cancelText: t('form.stay'),
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
}
