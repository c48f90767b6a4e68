import { useCallback, useEffect, useReducer, useRef, useSyncExternalStore } from 'react';
import { MSG, type AttachmentOrigin } from '@contest/shared';
import { toastDuration } from '../../api';
import { api } from '../../lib/api';
import { useFeedback, type Feedback } from '../feedback';
import {
  ResumeRegistry,
  UploadQueue,
  createUploadTransport,
  type AcceptRule,
  type StoredFile,
  type UploadEntry,
  type UploadTransport,
} from '../../lib/upload';

let defaultTransport: UploadTransport | null = null;
let defaultResume: ResumeRegistry | null = null;
/** The app's toasts, as the last mounted uploader found them. */
let toasts: Feedback['message'] | null = null;

/** A refusal the transport kept from the client's toast, shown as the client shows one. */
function notify(text: string): void {
  const content = text || MSG.requestFailed;
  void toasts?.error({ content, duration: toastDuration(content) / 1000 });
}

function sharedTransport(): UploadTransport {
  // Direct to the store when the server offers it (docs/uploader.md, "Direct upload").
  defaultTransport ??= createUploadTransport(api, { direct: true, notify });
  return defaultTransport;
}

function sharedResume(): ResumeRegistry {
  defaultResume ??= new ResumeRegistry(typeof localStorage === 'undefined' ? null : localStorage);
  return defaultResume;
}

export interface UseUploadQueueOptions {
  origin: AttachmentOrigin;
  accept: AcceptRule | null;
  maxSize?: number;
  maxCount?: number;
  transport?: UploadTransport;
  valueCount(): number;
  onUploaded(entry: UploadEntry, stored: StoredFile): void;
}

/**
 * One UploadQueue per mounted uploader, there from the first render (files can be picked at
 * once) and destroyed when the uploader unmounts, which aborts the running uploads. StrictMode's
 * trial unmount destroys the first queue; the remount then starts a fresh one.
 */
export function useUploadQueue(options: UseUploadQueueOptions): {
  queue: UploadQueue;
  entries: readonly UploadEntry[];
} {
  const latest = useRef(options);
  latest.current = options;
  const { message } = useFeedback();
  useEffect(() => {
    toasts = message;
  }, [message]);
  const create = () => {
    const { origin, accept, maxSize, maxCount, transport } = latest.current;
    return new UploadQueue({
      origin,
      accept,
      maxSize,
      maxCount,
      transport: transport ?? sharedTransport(),
      resume: sharedResume(),
      valueCount: () => latest.current.valueCount(),
      onUploaded: (entry, stored) => latest.current.onUploaded(entry, stored),
    });
  };
  const queueRef = useRef<UploadQueue | null>(null);
  queueRef.current ??= create();
  const [, rerender] = useReducer((n: number) => n + 1, 0);

  useEffect(() => {
    if (queueRef.current!.isDestroyed()) {
      queueRef.current = create();
      rerender();
    }
    const mounted = queueRef.current!;
    return () => mounted.destroy();
    // Mount and unmount only; option changes reach the queue through setOptions below.
  }, []);

  const queue = queueRef.current;
  const { origin, accept, maxSize, maxCount, transport } = options;
  useEffect(() => {
    queue.setOptions({ origin, accept, maxSize, maxCount, transport: transport ?? sharedTransport() });
  }, [queue, origin, accept, maxSize, maxCount, transport]);

  const subscribe = useCallback((listener: () => void) => queue.subscribe(listener), [queue]);
  const entries = useSyncExternalStore(subscribe, () => queue.entries());
  return { queue, entries };
}
