import { useTranslation } from 'react-i18next';
import { useLeaveGuard } from '../../lib/use-leave-guard';

/** The scoring page's leave guard (lib/use-leave-guard): unsaved scores ask before leaving. */
export function useUnsavedGuard(dirty: boolean): void {
  const { t } = useTranslation('expert');
  useLeaveGuard(() => dirty, dirty, {
    title: t('form.unsavedTitle'),
    content: t('form.unsaved'),
    okText: t('form.leave'),
    cancelText: t('form.stay'),
  });
}
