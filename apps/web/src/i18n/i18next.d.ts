import 'i18next';
import type { AppResources, DEFAULT_NS } from './resources';

// Makes t('ns:key') checked at compile time against the Chinese source files.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: typeof DEFAULT_NS;
    resources: AppResources;
  }
}
