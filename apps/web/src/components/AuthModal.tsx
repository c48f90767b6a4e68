import { useEffect, useState } from 'react';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  closeAuthModal,
  setAuthModalType,
  useAuthModalState,
} from '../lib/auth-modal';
import { LoginForm } from './auth/LoginForm';
import { RegisterForm } from './auth/RegisterForm';
import './auth/auth-forms.css';

/**
 * The public login / register dialog (docs/rules/identity.md, "Sign-in"). Open it with
 * useOpenAuthModal() (components) or openAuthModal() (non-React code).
 */
export function AuthModal() {
  const { t } = useTranslation();
  const { open, type } = useAuthModalState();
  // Set by a successful registration, so the login form starts with the new username.
  const [registeredUsername, setRegisteredUsername] = useState<string | undefined>();

  useEffect(() => {
    if (!open) setRegisteredUsername(undefined);
  }, [open]);

  return (
    <Modal
      open={open}
      title={t('auth.welcome')}
      footer={null}
      onCancel={closeAuthModal}
      destroyOnHidden
      centered
      width={440}
      mask={{ closable: false }}
      className="auth-modal"
    >
      <div className="auth-modal__body" data-testid="auth-modal" data-type={type}>
        {type === 'login' ? (
          <LoginForm
            // A new key remounts the form so the registered username becomes its initial value.
            key={registeredUsername ?? 'login'}
            initialUsername={registeredUsername}
            onSwitchToRegister={() => setAuthModalType('register')}
          />
        ) : (
          <RegisterForm
            onRegistered={(username) => {
              setRegisteredUsername(username);
              setAuthModalType('login');
            }}
            onSwitchToLogin={() => setAuthModalType('login')}
          />
        )}
      </div>
    </Modal>
  );
}
