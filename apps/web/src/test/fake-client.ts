import type { AxiosAdapter } from 'axios';
import { vi } from 'vitest';
import { createHttpClient } from '../api';

/**
 * An HTTP client over a fake network, as a signed-in participant on /my-sign sees it: `adapter`
 * answers every call; `ui` records the toasts and confirms the client would show.
 */
export function participantClientOver(adapter: AxiosAdapter) {
  localStorage.setItem('AccessToken', 'tok');
  const ui = { error: vi.fn(), closeAll: vi.fn(), confirm: vi.fn(async () => true) };
  const client = createHttpClient({ getPathname: () => '/my-sign', storage: localStorage, ui, navigate: vi.fn(), openLogin: vi.fn(), adapter });
  return { client, ui };
}
