import { Button, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../../components/admin-kit/AppDialog';
import { useFeedback } from '../../../components/feedback';

/**
 * Shows a generated password once (account created or password reset): the server keeps
 * only its hash, so closing this dialog is the last chance to copy it.
 */
export function PasswordOnceDialog({ account, password, onClose }: { account: string; password: string | null; onClose(): void }) {
  const { t } = useTranslation('admin');
  const { message } = useFeedback();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(password ?? '');
      void message.success(t('pages.password.copied'));
    } catch {
      // No clipboard (insecure origin): the password stays selectable on screen.
    }
  };
  return (
    <AppDialog
      open={password !== null}
      title={t('pages.password.title')}
      onCancel={onClose}
      onOk={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
    >
      <Typography.Paragraph>{t('pages.password.hint', { account })}</Typography.Paragraph>
      <Typography.Paragraph>
        <Typography.Text code strong data-testid="generated-password" className="generated-password">
          {password}
        </Typography.Text>
        <Button type="link" icon={<CopyOutlined />} onClick={() => void copy()}>
          {t('pages.password.copy')}
        </Button>
      </Typography.Paragraph>
    </AppDialog>
  );
}
