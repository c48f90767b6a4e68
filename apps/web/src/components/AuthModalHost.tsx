import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthModalState } from '../lib/auth-modal';

const loadAuthModal = () => import('./AuthModal');

// The dialog (antd Form, Modal, Steps, Tabs, the captcha) is its own chunk: most visitors of the
// home page never open it, and it would double the page's JavaScript.
const AuthModal = lazy(async () => ({ default: (await loadAuthModal()).AuthModal }));

/** Starts fetching the dialog early, e.g. when the pointer reaches a login button. */
export function preloadAuthModal(): void {
  void loadAuthModal().catch(() => {
    // Opening the dialog tries again and shows the route error page if it fails for good.
  });
}

/** Stand-in while the dialog's chunk downloads: the dialog's mask and a spinner, nothing to press. */
function AuthModalPlaceholder({ open }: { open: boolean }) {
  const { t } = useTranslation();
  if (!open) return null;
  return (
    <div className="auth-modal-placeholder" role="dialog" aria-modal="true" aria-busy="true" aria-label={t('auth.welcome')}>
      <span className="auth-modal-placeholder__spinner" />
    </div>
  );
}

/**
 * The login / register dialog, fetched the first time it opens (header buttons, a route guard,
 * a 401) and kept mounted afterwards so it animates like any antd Modal.
 */
export function AuthModalHost() {
  const { open } = useAuthModalState();
  const [wanted, setWanted] = useState(open);
  // Set during render: the dialog must not miss the frame it was opened in.
  if (open && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={<AuthModalPlaceholder open={open} />}>
      <AuthModal />
    </Suspense>
  );
}
