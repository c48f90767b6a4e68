import { Modal, Segmented, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  closeAuthModal,
  setAuthModalType,
  useAuthModalState,
  type AuthModalType,
} from '../lib/auth-modal';

/**
 * The public login / register dialog. Open it with useOpenAuthModal() (components) or
 * openAuthModal() (non-React code). The forms arrive with the identity feature.
 */
export function AuthModal() {
  const { t } = useTranslation();
  const { open, type } = useAuthModalState();
  return (
    <Modal
      open={open}
      title={t('auth.welcome')}
      footer={null}
      onCancel={closeAuthModal}
      destroyOnHidden
      centered
    >
      <div className="auth-modal" data-testid="auth-modal" data-type={type}>
        <Segmented<AuthModalType>
          block
          value={type}
          onChange={setAuthModalType}
          options={[
            { value: 'login', label: t('auth.loginTab') },
            { value: 'register', label: t('auth.registerTab') },
          ]}
        />
        <Typography.Paragraph type="secondary" className="auth-modal__placeholder">
          {type === 'login' ? t('auth.loginPlaceholder') : t('auth.registerPlaceholder')}
        </Typography.Paragraph>
      </div>
    </Modal>
  );
}
