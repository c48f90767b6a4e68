import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { BROADCAST_MSG } from '@contest/shared';

type MessageKey = keyof typeof BROADCAST_MSG;
const KEY_OF = new Map<string, MessageKey>((Object.entries(BROADCAST_MSG) as [MessageKey, string][]).map(([key, text]) => [text, key]));

/**
 * The server speaks Chinese (BROADCAST_MSG); in English a known text is swapped for its
 * translation under `messaging:msg` (an unknown one passes as it is).
 */
export function useMessagingMessage(): (message: string) => string {
  const { t } = useTranslation('messaging');
  return useCallback(
    (message: string) => {
      const key = KEY_OF.get(message);
      return key ? t(`msg.${key}`) : message;
    },
    [t],
  );
}
