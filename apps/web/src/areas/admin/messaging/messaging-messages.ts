import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { BROADCAST_MSG, TEMPLATE_MSG, unknownVariablesMessage } from '@contest/shared';

type MessageKey = keyof typeof BROADCAST_MSG;
type TemplateMessageKey = keyof typeof TEMPLATE_MSG;
const KEY_OF = new Map<string, MessageKey>((Object.entries(BROADCAST_MSG) as [MessageKey, string][]).map(([key, text]) => [text, key]));
const TEMPLATE_KEY_OF = new Map<string, TemplateMessageKey>((Object.entries(TEMPLATE_MSG) as [TemplateMessageKey, string][]).map(([key, text]) => [text, key]));

// `模板中有未知变量：{a}、{b}`: the only server text with parts in it; its prefix is read off the shared builder.
const UNKNOWN_PREFIX = unknownVariablesMessage([]);

/**
 * The server speaks Chinese (BROADCAST_MSG, TEMPLATE_MSG); in English a known text is swapped for
 * its translation under `messaging:msg` / `messaging:templateMsg` (an unknown one passes as it is).
 */
export function useMessagingMessage(): (message: string) => string {
  const { t } = useTranslation('messaging');
  return useCallback(
    (message: string) => {
      const key = KEY_OF.get(message);
      if (key) return t(`msg.${key}`);
      const templateKey = TEMPLATE_KEY_OF.get(message);
      if (templateKey) return t(`templateMsg.${templateKey}`);
      if (message.startsWith(UNKNOWN_PREFIX) && message.length > UNKNOWN_PREFIX.length) {
        const names = message.slice(UNKNOWN_PREFIX.length).split('、');
        return t('templateMsg.unknownVariables', { variables: names.join(t('segment.separator')) });
      }
      return message;
    },
    [t],
  );
}
