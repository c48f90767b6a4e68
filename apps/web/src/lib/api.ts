/**
 * The app's one HTTP client, wired to the real UI. The client lives outside React (TanStack
 * Query functions and event handlers call it), so the antd message/modal API and the router's
 * navigate are handed over by <ApiBridge/> once the tree mounts; until then antd's static
 * functions (loaded on use) and a full page load stand in.
 */
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { MSG, type ApiEnvelope } from '@contest/shared';
import { createHttpClient, type ClientUi } from '../api';
import { openAuthModal } from './auth-modal';
import { useFeedback } from '../components/feedback';

type Navigate = (path: string) => void;

// Fetched only if a call answers before the tree mounts: antd's message and modal code stays
// out of the first load (components/feedback loads it when the browser is idle).
const fallbackUi: ClientUi = {
  error: (text, durationMs) =>
    void import('antd/es/message').then(({ default: message }) => message.error({ content: text, duration: durationMs / 1000 })),
  closeAll: () => void import('antd/es/message').then(({ default: message }) => message.destroy()),
  confirm: (opts) =>
    import('antd/es/modal').then(
      ({ default: Modal }) =>
        new Promise<boolean>((resolve) => {
          Modal.confirm({ ...opts, onOk: () => resolve(true), onCancel: () => resolve(false) });
        }),
    ),
};

let ui: ClientUi = fallbackUi;
let navigate: Navigate = (path) => window.location.assign(path);
let clearUserInfo: () => void = () => {};
let describeRefusal: (body: ApiEnvelope) => string | null = () => null;

export const api = createHttpClient({
  getPathname: () => window.location.pathname,
  storage: window.localStorage,
  ui: {
    error: (text, ms) => ui.error(text, ms),
    closeAll: () => ui.closeAll(),
    confirm: (opts) => ui.confirm(opts),
  },
  navigate: (path) => navigate(path),
  openLogin: () => openAuthModal('login'),
  clearUserInfo: () => clearUserInfo(),
  describe: (body) => describeRefusal(body),
});

/** The console registers how its refusal toasts read in the page's language (docs/decisions.md, "English"). */
export function onDescribeRefusal(fn: (body: ApiEnvelope) => string | null): void {
  describeRefusal = fn;
}

/** The body of an answer: the client resolves `{ data }`, the pages want what is inside. */
export const dataOf = async <T>(call: Promise<{ data: T }>): Promise<T> => (await call).data;

/** The session feature registers how to forget the signed-in user (query cache, stores). */
export function onClearUserInfo(fn: () => void): void {
  clearUserInfo = fn;
}

/** Rendered once inside the feedback provider and the router. */
export function ApiBridge(): null {
  const { message, modal } = useFeedback();
  const routerNavigate = useNavigate();
  useEffect(() => {
    ui = {
      error: (text, durationMs) => void message.error({ content: text || MSG.requestFailed, duration: durationMs / 1000 }),
      closeAll: () => message.destroy(),
      confirm: (opts) =>
        new Promise<boolean>((resolve) => {
          modal.confirm({ ...opts, onOk: () => resolve(true), onCancel: () => resolve(false) });
        }),
    };
    navigate = (path) => void routerNavigate(path);
    return () => {
      ui = fallbackUi;
      navigate = (path) => window.location.assign(path);
    };
  }, [message, modal, routerNavigate]);
  return null;
}
