import { render, type RenderResult } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
// Not 'react-router/dom': under Vitest that entry loads the CommonJS build, a second copy
// of the router whose contexts the route components (ESM copy) would not see.
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers';
import { routes } from '../app/router';
import { initI18n } from '../i18n';
import { initPreferences, type PreferenceEnv } from '../lib/preferences';

export interface RenderRouteResult extends RenderResult {
  router: ReturnType<typeof createMemoryRouter>;
}

/** Renders the real route tree at `path`, with fresh preferences (Chinese unless told otherwise). */
export function renderRoute(
  path: string,
  env: Partial<PreferenceEnv> = {},
): RenderRouteResult {
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
