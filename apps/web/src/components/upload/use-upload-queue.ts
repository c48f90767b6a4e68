import { useCallback, useEffect, useReducer, useRef, useSyncExternalStore } from 'react';
import type { AttachmentOrigin } from '@contest/shared';
import { api } from '../../lib/api';
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

function sharedTransport(): UploadTransport {
  defaultTransport ??= createUploadTransport(api);
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
