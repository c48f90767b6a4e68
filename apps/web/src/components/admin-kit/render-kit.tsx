/** Renders a widget inside the app's providers and a router at an admin path, for the kit's tests. */
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../../app/providers';
import { initI18n } from '../../i18n';
import { initPreferences } from '../../lib/preferences';

export function renderKit(ui: ReactElement, { path = '/admin/test', search = '' } = {}) {
  initPreferences({ search, storage: localStorage, languages: ['zh-CN'] });
  initI18n();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [path] });
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, queryClient };
}
