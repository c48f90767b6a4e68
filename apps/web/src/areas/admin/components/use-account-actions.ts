import { useTranslation } from 'react-i18next';
import { ADMIN_MSG } from '@contest/shared';
import { serverText } from '../../../components/admin-kit/refusal-text';
import { useFeedback } from '../../../components/feedback';

interface Account {
  id: string;
  username: string;
  enabled: boolean;
}

export interface AccountActionsOptions {
  setEnabled(id: string, enabled: boolean): Promise<unknown>;
  resetPassword(id: string): Promise<{ password: string }>;
  /** Re-reads the list after a change. */
  refresh(): void;
  /** The new password, shown once. */
  onPassword(shown: { account: string; password: string }): void;
}

/** Enable/disable and password reset, each behind a confirm: the same on every account list. */
export function useAccountActions<A extends Account>({ setEnabled, resetPassword, refresh, onPassword }: AccountActionsOptions) {
  const { t } = useTranslation('admin');
  const { message, modal } = useFeedback();

  const toggle = (account: A) => {
    const enable = !account.enabled;
    modal.confirm({
      title: t('pages.common.confirmTitle'),
      content: t(enable ? 'pages.accounts.confirmEnable' : 'pages.accounts.confirmDisable', { name: account.username }),
      okText: t('kit.ok'),
      cancelText: t('kit.cancel'),
      onOk: async () => {
        await setEnabled(account.id, enable);
        void message.success(serverText(enable ? ADMIN_MSG.enabled : ADMIN_MSG.disabled));
        refresh();
      },
    });
  };

  const reset = (account: A) => {
    modal.confirm({
      title: t('pages.common.confirmTitle'),
      content: t('pages.common.confirmReset', { name: account.username }),
      okText: t('kit.ok'),
      cancelText: t('kit.cancel'),
      onOk: async () => {
        const result = await resetPassword(account.id);
        onPassword({ account: account.username, password: result.password });
      },
    });
  };

  return { toggle, reset };
}
