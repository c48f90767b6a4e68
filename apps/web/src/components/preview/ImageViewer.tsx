/** An image in the preview dialog: 旋转 in 90 degree steps, wheel zoom and drag to move (docs/rules/screens.md, "File preview"). */
import { useRef, useState, type PointerEvent, type WheelEvent } from 'react';
import { Button } from 'antd';
import { RotateRightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { nextRotation, nextZoom, wheelDeltaOf } from './image-transform';

export interface ImageViewerProps {
  src: string;
  alt: string;
  onRendered(): void;
  onError(): void;
}

export function ImageViewer({ src, alt, onRendered, onError }: ImageViewerProps) {
  const { t } = useTranslation('files');
  const [rotation, setRotation] = useState(0);
  const [scale, setScale] = useState(1);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const drag = useRef<{ pointerId: number; x: number; y: number } | null>(null);

  const onWheel = (event: WheelEvent<HTMLDivElement>) => {
    const native = event.nativeEvent as globalThis.WheelEvent & { wheelDelta?: number };
    setScale((current) => nextZoom(current, wheelDeltaOf(native)));
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    drag.current = { pointerId: event.pointerId, x: event.clientX - offset.x, y: event.clientY - offset.y };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start || start.pointerId !== event.pointerId) return;
    setOffset({ x: event.clientX - start.x, y: event.clientY - start.y });
  };
  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current?.pointerId === event.pointerId) drag.current = null;
  };

  return (
    <div className="image-viewer">
      <div
        className="image-viewer__stage"
        data-testid="image-stage"
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
      >
        <img
          src={src}
          alt={alt}
          draggable={false}
          data-testid="preview-image"
          data-rotation={rotation}
          data-scale={scale}
          style={{
            transform: `translate(${offset.x}px, ${offset.y}px) scale(${scale}) rotate(${rotation}deg)`,
          }}
          onLoad={onRendered}
          onError={onError}
        />
      </div>
      <div className="image-viewer__tools">
        <Button icon={<RotateRightOutlined />} onClick={() => setRotation(nextRotation)}>
          {t('preview.rotate')}
        </Button>
      </div>
    </div>
  );
}
