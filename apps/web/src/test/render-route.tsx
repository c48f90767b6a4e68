import { render, type RenderResult } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from '../app/providers';
import { routes } from '../app/router';
import { initI18n } from '../i18n';
import { initPreferences, type PreferenceEnv } from '../lib/preferences';

export interface RenderRouteResult extends RenderResult {
  router: ReturnType<typeof createMemoryRouter>;
}

/** Renders the real route tree at `path`, with fresh preferences (Chinese unless told otherwise). */
export function renderRoute(path: string, env: Partial<PreferenceEnv> = {}): RenderRouteResult {
  initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'], ...env });
  initI18n();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <AppProviders queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router };
}
