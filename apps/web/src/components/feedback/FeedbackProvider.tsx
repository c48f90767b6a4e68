import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { FeedbackContext, createFeedback, type Feedback, type FeedbackPort } from './feedback-context';

const FeedbackHolders = lazy(async () => ({ default: (await import('./FeedbackHolders')).FeedbackHolders }));

/** Longest wait for an idle moment before the feedback chunk is fetched anyway. */
const IDLE_TIMEOUT_MS = 2000;

/**
 * Toasts and confirm boxes without antd's App in the first load (about 30 KB gzip of message,
 * modal and notification code): the real APIs load when the browser is first idle after the
 * page renders, or at once when something speaks before that. Calls made in between are queued
 * and replayed, so no message is lost.
 */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [load, setLoad] = useState(false);
  const portRef = useRef<FeedbackPort | null>(null);
  portRef.current ??= { ready: null, queue: [], demand: () => setLoad(true) };
  const port = portRef.current;
  const feedback = useMemo(() => createFeedback(port), [port]);

  useEffect(() => {
    const idle = window.requestIdleCallback;
    if (idle) {
      const id = idle(() => setLoad(true), { timeout: IDLE_TIMEOUT_MS });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(() => setLoad(true), 200);
    return () => clearTimeout(id);
  }, []);

  const onReady = useCallback(
    (api: Feedback) => {
      port.ready = api;
      const pending = port.queue.splice(0);
      for (const call of pending) call(api);
    },
    [port],
  );

  return (
    <FeedbackContext.Provider value={feedback}>
      {children}
      {load && (
        <Suspense fallback={null}>
          <FeedbackHolders onReady={onReady} />
        </Suspense>
      )}
    </FeedbackContext.Provider>
  );
}
