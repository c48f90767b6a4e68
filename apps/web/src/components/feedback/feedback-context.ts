import { createContext, useContext } from 'react';
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';

/** What screens use to speak to the user: antd's message and modal hook APIs (as antd's App.useApp() gives). */
export interface Feedback {
  message: MessageInstance;
  modal: ModalHookAPI;
}

/** The real APIs once the feedback chunk has loaded; calls made before wait in a queue. */
export interface FeedbackPort {
  ready: Feedback | null;
  queue: Array<(feedback: Feedback) => void>;
  /** Asks for the chunk now (a call came before the idle-time load). */
  demand(): void;
}

/**
 * A stand-in with the APIs' shape: forwards at once when loaded, else queues the call and asks
 * for the chunk. Return values of queued calls are inert (callers here never use them).
 */
function forwarder<K extends keyof Feedback>(port: FeedbackPort, key: K): Feedback[K] {
  return new Proxy({} as Feedback[K], {
    get(_target, name) {
      return (...args: unknown[]) => {
        const call = (feedback: Feedback) => (feedback[key] as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>)[name]!(...args);
        if (port.ready) return call(port.ready);
        port.queue.push(call);
        port.demand();
        const inert = () => {};
        return Object.assign(inert, { then: (resolve?: (v: boolean) => void) => resolve?.(true), destroy: inert, update: inert });
      };
    },
  });
}

export function createFeedback(port: FeedbackPort): Feedback {
  return { message: forwarder(port, 'message'), modal: forwarder(port, 'modal') };
}

const unavailable: FeedbackPort = { ready: null, queue: [], demand: () => {} };
export const FeedbackContext = createContext<Feedback>(createFeedback(unavailable));

/** Toasts and confirm boxes; replaces antd's App.useApp() so antd's App stays out of the first load. */
export function useFeedback(): Feedback {
  return useContext(FeedbackContext);
}
