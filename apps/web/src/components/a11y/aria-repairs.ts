/**
 * Repairs of antd markup that no prop or theme token reaches (WCAG 2.1: 1.3.1, 2.1.1, 4.1.2), run
 * on the whole page by <AriaRepairs /> whenever the DOM changes. Each repair is idempotent and
 * touches only attributes, never the nodes React owns.
 *
 * Tabs — antd puts `role="tablist"` on `.ant-tabs-nav`, which also holds the overflow ("more")
 * button, the extra content and, inside each editable card, a close button: a tablist may own
 * tabs only (axe aria-required-children, critical). The role moves down to `.ant-tabs-nav-list`,
 * which holds the tabs (and the ink bar, which has no role); the overflow button is then a plain
 * button beside the tablist. A card's close button stays for the mouse but leaves the tab order and
 * the accessibility tree: the keyboard closes the focused tab with Delete (antd's own handler,
 * the WAI-ARIA tabs pattern), which the tab announces through `aria-keyshortcuts`.
 *
 * Tables — antd measures column widths with a copy of the header in an `aria-hidden` row, select-all
 * checkbox included: focusable content hidden from assistive technology (axe aria-hidden-focus).
 * The row is made `inert`. A table wider than its box scrolls inside `.ant-table-content` / `.ant-table-body`;
 * a keyboard user can only scroll it if it takes focus (axe scrollable-region-focusable, 2.1.1).
 * While it scrolls it gets `tabindex=0`, `role=group` and a name.
 */

const REPAIRED = 'data-a11y-repaired';

/** Where the repairs look: the page, or a part of it. */
type Root = Pick<Document, 'getElementsByClassName'>;

/** Elements of a class (getElementsByClassName: far cheaper than selectors, run on every change). */
const byClass = (root: Root, name: string) => [...root.getElementsByClassName(name)] as HTMLElement[];

export function repairTabs(root: Root): void {
  for (const nav of byClass(root, 'ant-tabs-nav')) {
    if (nav.getAttribute('role') !== 'tablist') continue;
    const list = nav.querySelector<HTMLElement>(':scope > .ant-tabs-nav-wrap > .ant-tabs-nav-list');
    if (!list) continue;
    list.setAttribute('role', 'tablist');
    const orientation = nav.getAttribute('aria-orientation');
    if (orientation) list.setAttribute('aria-orientation', orientation);
    nav.removeAttribute('role');
    nav.removeAttribute('aria-orientation');
  }
  for (const close of byClass(root, 'ant-tabs-tab-remove')) {
    if (!close.closest('.ant-tabs-nav-list')) continue; // the overflow menu's own close buttons
    if (close.getAttribute('tabindex') !== '-1') close.setAttribute('tabindex', '-1');
    if (close.getAttribute('aria-hidden') !== 'true') close.setAttribute('aria-hidden', 'true');
    const tab = close.parentElement?.querySelector<HTMLElement>(':scope > [role="tab"]');
    if (tab && tab.getAttribute('aria-keyshortcuts') !== 'Delete') tab.setAttribute('aria-keyshortcuts', 'Delete');
  }
}

export function repairTableMeasureRows(root: Root): void {
  for (const row of byClass(root, 'ant-table-measure-row')) if (!row.hasAttribute('inert')) row.setAttribute('inert', '');
}

/** True when the element's content is larger than its box along an axis it may scroll on. */
function scrolls(el: HTMLElement): boolean {
  // Sizes first: most tables fit, and their style need not be computed at all.
  const wide = el.scrollWidth > el.clientWidth + 1;
  const tall = el.scrollHeight > el.clientHeight + 1;
  if (!wide && !tall) return false;
  const style = getComputedStyle(el);
  const canScroll = (overflow: string) => overflow === 'auto' || overflow === 'scroll';
  return (wide && canScroll(style.overflowX)) || (tall && canScroll(style.overflowY));
}

const scrollBoxes = (root: Root) => [...byClass(root, 'ant-table-content'), ...byClass(root, 'ant-table-body')];

export function repairScrollRegions(root: Root, label: string): void {
  for (const region of scrollBoxes(root)) {
    const mine = region.hasAttribute(REPAIRED);
    if (scrolls(region)) {
      if (!mine && region.hasAttribute('tabindex')) continue; // focusable already, by someone else
      region.setAttribute(REPAIRED, '');
      if (region.getAttribute('tabindex') !== '0') region.setAttribute('tabindex', '0');
      if (region.getAttribute('role') !== 'group') region.setAttribute('role', 'group');
      if (region.getAttribute('aria-label') !== label) region.setAttribute('aria-label', label);
    } else if (mine) {
      for (const attr of [REPAIRED, 'tabindex', 'role', 'aria-label']) region.removeAttribute(attr);
    }
  }
}

/**
 * Watches `root` and repairs what changes, at most once a frame. A table starts or stops scrolling
 * when its rows change (a DOM change) or its box changes width (window, collapsed menu): each
 * scroll box found is also watched for size. Returns the function that stops watching.
 */
export function watchAriaRepairs(root: HTMLElement, scrollLabel: () => string): () => void {
  let frame = 0;
  const sized = new Set<Element>();
  const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(() => schedule()) : null;
  const run = () => {
    frame = 0;
    repairTabs(root);
    repairTableMeasureRows(root);
    repairScrollRegions(root, scrollLabel());
    if (resize) {
      // A table that left the page is let go (an observed node would stay in memory).
      for (const region of sized) {
        if (!region.isConnected) {
          resize.unobserve(region);
          sized.delete(region);
        }
      }
      for (const region of scrollBoxes(root)) {
        if (!sized.has(region)) {
          sized.add(region);
          resize.observe(region);
        }
      }
    }
  };
  function schedule() {
    if (!frame) frame = requestAnimationFrame(run);
  }
  // Tabs and measure rows are repaired at once (a microtask after the change, cheap class
  // lookups): repaired only at the next frame, a check or an assistive technology that reads the
  // page in between (axe in e2e/a11y-routes.e2e.ts did, on pages that re-render their tabs) meets
  // antd's markup. Scroll regions need layout and wait for the frame.
  const observer = new MutationObserver(() => {
    repairTabs(root);
    repairTableMeasureRows(root);
    schedule();
  });
  // tabindex: antd sets a close button's again when its tab becomes active or inactive.
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['tabindex'] });
  run();
  return () => {
    observer.disconnect();
    resize?.disconnect();
    if (frame) cancelAnimationFrame(frame);
  };
}
