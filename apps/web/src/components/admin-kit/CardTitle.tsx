import type { ReactNode } from 'react';
import './kit.css';

/** Section heading with the accent bar used on console pages and drawers. */
export function CardTitle({ title, extra, level = 2 }: { title: ReactNode; extra?: ReactNode; level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="kit-card-title">
      <Heading className="kit-card-title__text">{title}</Heading>
      {extra && <div className="kit-card-title__extra">{extra}</div>}
    </div>
  );
}
