import type { ButtonHTMLAttributes, ReactNode } from 'react';
import './plain-button.css';

export interface PlainButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  /** antd's Button types that the home page's first paint uses. */
  type?: 'primary' | 'default' | 'text';
  size?: 'small' | 'middle' | 'large';
  /** Transparent background, for buttons on a coloured banner. */
  ghost?: boolean;
  icon?: ReactNode;
  /** The button's `type` attribute (antd's `htmlType`). */
  htmlType?: 'button' | 'submit' | 'reset';
  children?: ReactNode;
}

/**
 * A plain `<button>` drawn like antd's Button (same sizes, colours, focus ring, from the theme's
 * CSS variables): the header and the home page use it so that their first paint needs none of
 * antd's button and CSS-in-JS code (docs/decisions.md, "Home page JavaScript budget").
 */
export function PlainButton({
  type = 'default',
  size = 'middle',
  ghost = false,
  icon,
  htmlType = 'button',
  className,
  children,
  ...rest
}: PlainButtonProps) {
  const iconOnly = icon != null && (children == null || children === false);
  const classes = [
    'plain-btn',
    `plain-btn--${type}`,
    size !== 'middle' && `plain-btn--${size}`,
    ghost && 'plain-btn--ghost',
    iconOnly && 'plain-btn--icon-only',
    className,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <button {...rest} type={htmlType} className={classes}>
      {icon != null && <span className="plain-btn__icon">{icon}</span>}
      {children != null && children !== false && <span>{children}</span>}
    </button>
  );
}
