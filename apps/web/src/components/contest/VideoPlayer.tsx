import { useRef, useState } from 'react';
import { Button, Typography } from 'antd';
import { PlayCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ContestAttachment } from '@contest/shared';
import { api } from '../../lib/api';
import { fetchAccessUrl } from '../../lib/upload';

/**
 * The materials' video in the browser's own player (the console's and the expert's pages; texts
 * of the console namespace, which the expert console loads too). The file is streamed through a short-lived
 * signed link (GET /attachment/accessUrl, docs/files.md), asked for when the operator presses
 * play so a page left open does not hold an expired one; when the link dies mid-way (seeking after
 * 15 minutes) a fresh one is asked for once and playback resumes where it was.
 */
export function VideoPlayer({ file }: { file: ContestAttachment }) {
  const { t } = useTranslation('admin');
  const [src, setSrc] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const retried = useRef(false);
  const resumeAt = useRef(0);
  const videoRef = useRef<HTMLVideoElement>(null);

  const load = async () => {
    setLoading(true);
    setFailed(false);
    try {
      const url = await fetchAccessUrl(api, file.filePath);
      if (!url) throw new Error('no link');
      // Playing is previewing: an expert may play a video while downloads are off (docs/security.md, "Blind review").
      setSrc(`${url}${url.includes('?') ? '&' : '?'}preview=1`);
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  };

  const onError = () => {
    if (retried.current) {
      setFailed(true);
      return;
    }
    retried.current = true;
    resumeAt.current = videoRef.current?.currentTime ?? 0;
    void load();
  };

  if (failed) {
    return (
      <Typography.Text type="secondary" data-testid="video-error">
        {t('pages.prelim.video.error')}
      </Typography.Text>
    );
  }
  if (!src) {
    return (
      <Button icon={<PlayCircleOutlined />} loading={loading} onClick={() => void load()} data-testid="video-play">
        {t('pages.prelim.video.play')}
      </Button>
    );
  }
  return (
    <video
      ref={videoRef}
      key={src}
      className="prelim-video"
      src={src}
      controls
      preload="metadata"
      playsInline
      aria-label={t('pages.prelim.video.label', { name: file.name })}
      data-testid="prelim-video"
      onLoadedMetadata={(e) => {
        if (resumeAt.current > 0) e.currentTarget.currentTime = resumeAt.current;
      }}
      onError={onError}
    />
  );
}
