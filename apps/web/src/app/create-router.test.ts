import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { createAppRouter } from './create-router';

/** The deepest route the router settled on: the catch-all's path is '*'. */
const settledPath = (router: ReturnType<typeof createAppRouter>) => router.state.matches.at(-1)?.route.path;
const consolesKnown = (router: ReturnType<typeof createAppRouter>) =>
  (router.routes[0]?.children ?? []).map((r) => r.path).filter((p) => p === '/admin' || p === '/expert');

describe('the app router', { timeout: 30_000 }, () => {
  let router: ReturnType<typeof createAppRouter> | null = null;
  afterEach(() => {
    router?.dispose();
    router = null;
    window.history.replaceState(null, '', '/');
  });

  it('starts without the console areas and adds one when its address is first visited', async () => {
    window.history.replaceState(null, '', '/');
    router = createAppRouter();
    await waitFor(() => expect(router!.state.initialized).toBe(true));
    expect(consolesKnown(router)).toEqual([]);

    await router.navigate('/admin/login');
    expect(settledPath(router)).toBe('/admin/login');
    expect(consolesKnown(router)).toEqual(['/admin']);
    // Added once: visiting again (and a page of the area not yet seen) adds nothing more.
    await router.navigate('/');
    await router.navigate('/admin/login');
    expect(consolesKnown(router)).toEqual(['/admin']);

    await router.navigate('/expert/login');
    expect(settledPath(router)).toBe('/expert/login');
    expect(consolesKnown(router)).toEqual(['/admin', '/expert']);
  });

  it('opened at a console address, it adds the area before the first render settles', async () => {
    window.history.replaceState(null, '', '/expert/login');
    router = createAppRouter();
    await waitFor(() => expect(router!.state.initialized).toBe(true), { timeout: 15_000 });
    expect(settledPath(router)).toBe('/expert/login');
  });

  it('an unknown address outside the consoles still reaches the catch-all', async () => {
    window.history.replaceState(null, '', '/');
    router = createAppRouter();
    await waitFor(() => expect(router!.state.initialized).toBe(true));
    await router.navigate('/no-such-page');
    expect(settledPath(router)).toBe('*');
    expect(consolesKnown(router)).toEqual([]);
  });
});
