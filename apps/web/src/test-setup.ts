// Keeps each test's storage and DOM independent.
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// The first render pulls in antd and lazy route chunks, which can exceed the 1 s default on CI.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  // Vitest globals are off, so Testing Library cannot register its own unmount hook.
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  document.body.innerHTML = '';
});
