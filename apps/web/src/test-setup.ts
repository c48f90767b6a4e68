// Keeps each test's storage and DOM independent.
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

afterEach(() => {
  // Vitest globals are off, so Testing Library cannot register its own unmount hook.
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  document.body.innerHTML = '';
});
