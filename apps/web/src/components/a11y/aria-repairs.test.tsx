import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Tabs } from 'antd';
import { AppProviders } from '../../app/providers';
import { initI18n } from '../../i18n';
import { initPreferences } from '../../lib/preferences';
import { repairScrollRegions } from './aria-repairs';

function renderInApp(node: React.ReactNode) {
  initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'] });
  initI18n();
  return render(<AppProviders queryClient={new QueryClient()}>{node}</AppProviders>);
}

/**
 * What a tablist owns, the way axe's aria-required-children walks it: elements without a role and
 * not focusable are looked through; anything hidden from assistive technology is left out.
 */
function ownedByTablist(list: Element): Element[] {
  const owned: Element[] = [];
  const walk = (el: Element) => {
    for (const child of el.children) {
      if (child.closest('[aria-hidden="true"]')) continue;
      const focusable = child.matches('button, a[href], input, select, textarea, [tabindex]');
      if (child.hasAttribute('role') || focusable) owned.push(child);
      else walk(child);
    }
  };
  walk(list);
  return owned;
}

function EditableTabs() {
  const [active, setActive] = useState('a');
  return (
    <Tabs
      type="editable-card"
      hideAdd
      activeKey={active}
      onChange={setActive}
      onEdit={() => undefined}
      items={[
        { key: 'a', label: '第一页' },
        { key: 'b', label: '第二页' },
        { key: 'c', label: '第三页' },
      ]}
    />
  );
}

describe('antd Tabs: a tablist owns tabs only (axe aria-required-children)', () => {
  it('moves the role onto the list of tabs and takes the close buttons out of the tab order', async () => {
    renderInApp(<EditableTabs />);
    await waitFor(() => expect(document.querySelector('.ant-tabs-nav-list[role="tablist"]')).not.toBeNull());
    const lists = screen.getAllByRole('tablist');
    expect(lists).toHaveLength(1);
    const owned = ownedByTablist(lists[0]!);
    expect(owned.map((el) => el.getAttribute('role'))).toEqual(['tab', 'tab', 'tab']);
    // The overflow ("more") button is outside the tablist now.
    const more = document.querySelector('.ant-tabs-nav-more');
    if (more) expect(lists[0]!.contains(more)).toBe(false);
    // The keyboard closes a tab with Delete, which each closable tab announces.
    for (const tab of screen.getAllByRole('tab')) expect(tab.getAttribute('aria-keyshortcuts')).toBe('Delete');
    for (const close of document.querySelectorAll('.ant-tabs-tab-remove')) {
      expect(close.getAttribute('tabindex')).toBe('-1');
      expect(close.getAttribute('aria-hidden')).toBe('true');
    }
  });

  it('keeps the close buttons out of the tab order when another tab becomes active', async () => {
    renderInApp(<EditableTabs />);
    fireEvent.click(await screen.findByRole('tab', { name: '第二页' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: '第二页' }).getAttribute('aria-selected')).toBe('true'));
    await waitFor(() => {
      for (const close of document.querySelectorAll('.ant-tabs-tab-remove')) expect(close.getAttribute('tabindex')).toBe('-1');
    });
  });
});

describe('scrolling tables take focus (axe scrollable-region-focusable)', () => {
  const sizes = new Map<Element, { scrollWidth: number; clientWidth: number }>();
  const restore: (() => void)[] = [];
  const fake = (prop: 'scrollWidth' | 'clientWidth') => {
    const original = Object.getOwnPropertyDescriptor(HTMLElement.prototype, prop);
    Object.defineProperty(HTMLElement.prototype, prop, {
      configurable: true,
      get(this: HTMLElement) {
        return sizes.get(this)?.[prop] ?? 0;
      },
    });
    restore.push(() => original && Object.defineProperty(HTMLElement.prototype, prop, original));
  };
  afterEach(() => {
    restore.splice(0).forEach((undo) => undo());
    sizes.clear();
  });

  it('gives a table wider than its box tabindex=0 and a name, and takes them back when it fits', () => {
    fake('scrollWidth');
    fake('clientWidth');
    document.body.innerHTML = '<div class="ant-table-content" style="overflow-x: auto"><table></table></div>';
    const region = document.querySelector<HTMLElement>('.ant-table-content')!;
    sizes.set(region, { scrollWidth: 1600, clientWidth: 800 });
    act(() => repairScrollRegions(document, '表格，可左右滚动'));
    expect(region.getAttribute('tabindex')).toBe('0');
    expect(region.getAttribute('role')).toBe('group');
    expect(region.getAttribute('aria-label')).toBe('表格，可左右滚动');

    sizes.set(region, { scrollWidth: 800, clientWidth: 800 });
    repairScrollRegions(document, '表格，可左右滚动');
    expect(region.hasAttribute('tabindex')).toBe(false);
    expect(region.hasAttribute('role')).toBe(false);
  });
});

describe('the repairs follow the page at once', () => {
  it('repairs tabs added to the page before the next frame (a check reading the page in between finds no antd tablist)', async () => {
    const { watchAriaRepairs } = await import('./aria-repairs');
    const frames = window.requestAnimationFrame;
    // No frame comes: only what runs on the DOM change itself counts.
    window.requestAnimationFrame = () => 1;
    const root = document.createElement('div');
    document.body.append(root);
    const stop = watchAriaRepairs(root, () => 'scroll');
    try {
      root.innerHTML =
        '<div class="ant-tabs-nav" role="tablist"><div class="ant-tabs-nav-wrap"><div class="ant-tabs-nav-list">' +
        '<div class="ant-tabs-tab"><div role="tab">A</div><button class="ant-tabs-tab-remove" aria-label="remove"></button></div>' +
        '</div></div><div class="ant-tabs-nav-operations"><button class="ant-tabs-nav-more" aria-label="more"></button></div></div>';
      // MutationObserver callbacks run as a microtask after the change.
      await Promise.resolve();
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      await waitFor(() => expect(root.querySelector('.ant-tabs-nav-list')!.getAttribute('role')).toBe('tablist'), { timeout: 50 });
      expect(root.querySelector('.ant-tabs-nav')!.hasAttribute('role')).toBe(false);
      expect(root.querySelector('.ant-tabs-tab-remove')!.getAttribute('aria-hidden')).toBe('true');
    } finally {
      stop();
      root.remove();
      window.requestAnimationFrame = frames;
    }
  });
});
