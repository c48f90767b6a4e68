import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A hook that shows a shared message table's texts in the page's language (docs/decisions.md,
 * "English"): the server and the shared schemas write the table's Chinese; a known text is looked
 * up by its key under `<namespace>:msg`, an unknown one passes as it is.
 */
export function messageTableHook<K extends string>(table: Readonly<Record<K, string>>, namespace: string): () => (message: string | null | undefined) => string {
  const keyOf = new Map<string, K>((Object.entries(table) as [K, string][]).map(([key, text]) => [text, key]));
  return function useTableMessage() {
    const { t } = useTranslation(namespace as never);
    return useCallback(
      (message: string | null | undefined) => {
        if (!message) return '';
        const key = keyOf.get(message);
        return key ? String(t(`msg.${key}` as never)) : message;
      },
      [t],
    );
  };
}
