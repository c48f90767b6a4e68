import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { FeedbackProvider } from './FeedbackProvider';
import { useFeedback } from './feedback-context';

function SpeaksOnMount({ text }: { text: string }) {
  const { message } = useFeedback();
  useEffect(() => {
    // Before the lazy holders exist: the call must be queued, not lost.
    void message.success(text);
  }, [message, text]);
  return null;
}

describe('FeedbackProvider', () => {
  it('shows a toast asked for before its code has loaded', async () => {
    render(
      <FeedbackProvider>
        <SpeaksOnMount text="登录成功" />
      </FeedbackProvider>,
    );
    expect(await screen.findByText('登录成功', undefined, { timeout: 10_000 })).toBeTruthy();
  });

  it('answers a confirm through the real modal once loaded', async () => {
    let answered: string | null = null;
    function Asks() {
      const { modal } = useFeedback();
      useEffect(() => {
        modal.confirm({ title: '提示', content: '确认提交？', onOk: () => void (answered = 'ok') });
      }, [modal]);
      return null;
    }
    render(
      <FeedbackProvider>
        <Asks />
      </FeedbackProvider>,
    );
    expect(await screen.findByText('确认提交？', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(answered).toBeNull();
  });
});
