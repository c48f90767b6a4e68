/**
 * A video or audio file in the preview dialog: the browser's own player, loading its link itself
 * (preload="metadata", then ranges as the user plays or seeks), so nothing is held in memory.
 */
import { useRef, useState } from 'react';

export interface MediaPlayerProps {
  kind: 'video' | 'audio';
  /** A signed link with redirect=1, or a blob: link of bytes the page holds. */
  src: string;
  name: string;
  /** The player knows the length (and the video its size): the loading overlay goes. */
  onRendered(): void;
  onError(): void;
  /**
   * A fresh link, for a signed one that dies while the file is open (seeking after its minutes
   * are up). Asked for once, and only after the file has loaded: a file that never loads shows
   * the error at once.
   */
  relink?: () => Promise<string>;
}

export function MediaPlayer({ kind, src, name, onRendered, onError, relink }: MediaPlayerProps) {
  const [current, setCurrent] = useState(src);
  const loaded = useRef(false);
  const retried = useRef(false);
  const resumeAt = useRef(0);

  const handleError = (element: HTMLMediaElement) => {
    if (!relink || !loaded.current || retried.current) {
      onError();
      return;
    }
    retried.current = true;
    resumeAt.current = element.currentTime;
    relink().then((next) => {
      // The same link again (a page's own link) would not reload: nothing left to try.
      if (next === current) onError();
      else setCurrent(next);
    }, onError);
  };

  const common = {
    src: current,
    controls: true,
    preload: 'metadata',
    'aria-label': name,
    onLoadedMetadata: (event: { currentTarget: HTMLMediaElement }) => {
      loaded.current = true;
      if (resumeAt.current > 0) event.currentTarget.currentTime = resumeAt.current;
      onRendered();
    },
    onError: (event: { currentTarget: HTMLMediaElement }) => handleError(event.currentTarget),
  } as const;

  return (
    <div className="preview-dialog__media">
      {kind === 'video' ? <video key={current} {...common} playsInline data-testid="preview-video" /> : <audio key={current} {...common} data-testid="preview-audio" />}
    </div>
  );
}
