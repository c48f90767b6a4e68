import { useEffect } from 'react';
import { message, Modal } from 'antd';
import type { Feedback } from './feedback-context';

/**
 * The lazily loaded half of the feedback provider: antd's message and modal hooks, whose
 * holders render inside the ConfigProvider (theme and locale apply) next to the page.
 */
export function FeedbackHolders({ onReady }: { onReady(feedback: Feedback): void }) {
  const [messageApi, messageHolder] = message.useMessage();
  const [modalApi, modalHolder] = Modal.useModal();
  useEffect(() => {
    onReady({ message: messageApi, modal: modalApi });
  }, [messageApi, modalApi, onReady]);
  return (
    <>
      {messageHolder}
      {modalHolder}
    </>
  );
}
