import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { PlainButton } from './PlainButton';

describe('PlainButton', () => {
  it('is a type="button" button with antd-like classes that passes its attributes on', () => {
    const onClick = vi.fn();
    render(
      <PlainButton type="primary" size="large" className="cta" aria-describedby="x" onClick={onClick}>
        立即报名
      </PlainButton>,
    );
    const button = screen.getByRole('button', { name: '立即报名' });
    expect(button.getAttribute('type')).toBe('button');
    expect(button.getAttribute('aria-describedby')).toBe('x');
    expect(button.className).toBe('plain-btn plain-btn--primary plain-btn--large cta');
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('marks an icon-only button, whose name comes from aria-label', () => {
    render(<PlainButton type="text" icon={<svg data-testid="icon" />} aria-label="菜单" aria-expanded={false} />);
    const button = screen.getByRole('button', { name: '菜单' });
    expect(button.className).toBe('plain-btn plain-btn--text plain-btn--icon-only');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.querySelector('.plain-btn__icon [data-testid="icon"]')).not.toBeNull();
  });

  it('defaults to a middle-sized default button; submit when asked', () => {
    render(
      <PlainButton htmlType="submit" ghost>
        Go
      </PlainButton>,
    );
    const button = screen.getByRole('button', { name: 'Go' });
    expect(button.getAttribute('type')).toBe('submit');
    expect(button.className).toBe('plain-btn plain-btn--default plain-btn--ghost');
  });
});
