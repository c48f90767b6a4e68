import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLeaveGuard } from '../../../lib/use-leave-guard';

/**
 * The editor's leave guard (lib/use-leave-guard). `setDirty(false)` takes effect at once (a ref),
 * so a save may navigate in the same tick.
 */
export function useUnsavedGuard(): { dirty: boolean; setDirty(dirty: boolean): void } {
  const { t } = useTranslation('newsAdmin');
  const [dirty, setDirtyState] = useState(false);
  const dirtyRef = useRef(false);
  const setDirty = useCallback((next: boolean) => {
    dirtyRef.current = next;
    setDirtyState(next);
  }, []);
  useLeaveGuard(() => dirtyRef.current, dirty, {
    title: t('edit.unsavedTitle'),
    content: t('edit.unsaved'),
    okText: t('edit.leave'),
    cancelText: t('edit.stay'),
  });
  return { dirty, setDirty };
}
