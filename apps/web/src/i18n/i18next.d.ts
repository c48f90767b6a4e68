import 'i18next';
import type { AppResources } from './resources';
import type { DEFAULT_NS } from './namespaces';

// Makes t('ns:key') checked at compile time against the Chinese source files.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: typeof DEFAULT_NS;
    resources: AppResources;
  }
}
