import { ADMIN_WATERMARK } from '@contest/shared';
import { watermarkDataUrl, watermarkLines } from './watermark';

export interface WatermarkProps {
  code: string | null | undefined;
  account: string;
  /** Text colour; the opacity is fixed by the spec. */
  color?: string;
}

/** Full-screen overlay that lets every click through; drawn over the whole console. */
export function Watermark({ code, account, color }: WatermarkProps) {
  const lines = watermarkLines(code, account);
  if (lines.length === 0) return null;
  return (
    <div
      className="console-watermark"
      data-testid="console-watermark"
      data-text={lines.join(' ')}
      aria-hidden
      style={{
        backgroundImage: `url("${watermarkDataUrl(lines, color)}")`,
        backgroundSize: `${ADMIN_WATERMARK.width}px ${ADMIN_WATERMARK.height}px`,
      }}
    />
  );
}
