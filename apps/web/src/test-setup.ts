// Keeps each test's storage and DOM independent.
import { createRequire } from 'node:module';
import { afterAll, afterEach, vi } from 'vitest';
import { antdStylesInserted } from './test-styles';
import { cleanup, configure } from '@testing-library/react';
import axios from 'axios';
import { registerDayjs, registerResources } from './i18n';
import { resetContestName } from './i18n/contest-name';
import { setDayjsLocale } from './i18n/dayjs-locale';
import { resources } from './i18n/resources';

// The app fetches most namespaces (and dayjs's locale) with their area's route; tests render
// components on their own too, so every text is at hand from the start.
registerResources(resources);
registerDayjs(setDayjsLocale);

// Unit tests never reach a server: a call a test did not mock fails at once, inside the test,
// instead of reaching for 127.0.0.1:3000 and settling after the test environment is gone.
axios.defaults.adapter = async (config) => {
  throw Object.assign(new Error(`unmocked request in a unit test: ${config.method?.toUpperCase()} ${config.url}`), {
    code: 'ERR_NETWORK',
    config,
  });
};

// antd's CSS-in-JS writes hundreds of style rules into the document, and every getComputedStyle
// in happy-dom (Testing Library's role and name queries, antd's table width) matched each element
// against all of them: most of the suite's time. Tests check behaviour and text, not looks (the
// browser journeys and their screenshots check those), so the styles are made but not inserted.
// A test about the styles themselves turns them on (insertAntdStyles in test-styles.ts).
const dynamicCss = createRequire(import.meta.url)('@rc-component/util/lib/Dom/dynamicCSS') as {
  updateCSS: (css: string, key: string, options?: object) => HTMLStyleElement;
};
const insertCss = dynamicCss.updateCSS;
dynamicCss.updateCSS = (css, key, options) => {
  if (antdStylesInserted()) return insertCss(css, key, options);
  const style = document.createElement('style');
  style.textContent = css;
  return style;
};

// The first render pulls in antd and lazy route chunks, which can exceed the 1 s default on CI.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  // Vitest globals are off, so Testing Library cannot register its own unmount hook.
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  document.body.innerHTML = '';
  // Every rendered route loads the contest name (RootLayout); a fixture's name must not reach the next test.
  resetContestName();
});

// Most files share one module graph and one set of globals per worker (vite.config.ts): what a
// file spied on or stubbed is put back when it ends, so the next file starts from the originals.
// Some files assign URL's blob helpers outright (Object.assign), which no restore undoes.
const { createObjectURL, revokeObjectURL } = URL;
afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  Object.assign(URL, { createObjectURL, revokeObjectURL });
});
