import { useEffect, useState, type ReactNode } from 'react';
import { Tabs } from 'antd';
import { STICKY_THRESHOLD_PX } from '@contest/shared';
import './kit.css';

/** Tab item: txtMes (label), disabled, component (content). */
export interface KitTabItem {
  key: string;
  txtMes: ReactNode;
  disabled?: boolean;
  component?: ReactNode;
}

export interface KitTabsProps {
  items: KitTabItem[];
  activeKey?: string;
  onChange?(key: string): void;
  /** Bordered cards, or plain (line) tabs. */
  bordered?: boolean;
  /** Stick to the top, with a shadow once the page scrolled past the threshold. */
  sticky?: boolean;
}

/** True once the page has scrolled STICKY_THRESHOLD_PX (60 px) or more. */
export function useScrolledPast(threshold = STICKY_THRESHOLD_PX, enabled = true): boolean {
  const [past, setPast] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const onScroll = () => setPast(window.scrollY >= threshold);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [threshold, enabled]);
  return past;
}

/** The tab bar of the shared widgets (docs/rules/screens.md, "Shared widgets"); disabled tabs cannot be chosen. */
export function KitTabs({ items, activeKey, onChange, bordered = false, sticky = false }: KitTabsProps) {
  const scrolled = useScrolledPast(STICKY_THRESHOLD_PX, sticky);
  const className = ['kit-tabs', sticky && 'kit-tabs--sticky', sticky && scrolled && 'kit-tabs--shadow']
    .filter(Boolean)
    .join(' ');
  return (
    <Tabs
      className={className}
      type={bordered ? 'card' : 'line'}
      {...(activeKey !== undefined ? { activeKey } : {})}
      onChange={(key) => onChange?.(key)}
      items={items.map((item) => ({
        key: item.key,
        label: item.txtMes,
        disabled: item.disabled ?? false,
        children: item.component,
      }))}
    />
  );
}
