import { useMemo, useRef, type UIEvent } from 'react';
import { Select, Spin, type SelectProps } from 'antd';
import './kit.css';

/** docs/rules/screens.md, "Shared widgets": load more within 10 px of the bottom, at most every 50 ms. */
export const LOAD_MORE_THRESHOLD_PX = 10;
export const LOAD_MORE_THROTTLE_MS = 50;

/** Select option: code is the value, name the label. */
export interface CodeName {
  code: string;
  name: string;
}

export function isNearBottom(el: Pick<HTMLElement, 'scrollTop' | 'clientHeight' | 'scrollHeight'>, threshold = LOAD_MORE_THRESHOLD_PX): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= threshold;
}

/** Leading-edge throttle: the first call runs, the next ones within `ms` are dropped. */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, ms: number, now: () => number = Date.now) {
  let last = -Infinity;
  return (...args: A) => {
    const t = now();
    if (t - last < ms) return;
    last = t;
    fn(...args);
  };
}

export interface LoadMoreSelectProps extends Omit<SelectProps<string | string[]>, 'options'> {
  options: CodeName[];
  /** Asks for the next page; not called while `loadingMore` or without `hasMore`. */
  loadMore?(): void;
  hasMore?: boolean;
  loadingMore?: boolean;
}

/** A select that asks for more options when its list is scrolled to the bottom. */
export function LoadMoreSelect({ options, loadMore, hasMore = false, loadingMore = false, ...rest }: LoadMoreSelectProps) {
  const state = useRef({ hasMore, loadingMore, loadMore });
  state.current = { hasMore, loadingMore, loadMore };
  const onScroll = useMemo(
    () =>
      throttle((el: HTMLElement) => {
        const { hasMore: more, loadingMore: busy, loadMore: load } = state.current;
        if (more && !busy && load && isNearBottom(el)) load();
      }, LOAD_MORE_THROTTLE_MS),
    [],
  );
  return (
    <Select<string | string[]>
      {...rest}
      options={options.map((o) => ({ value: o.code, label: o.name }))}
      onPopupScroll={(event: UIEvent<HTMLDivElement>) => onScroll(event.currentTarget)}
      popupRender={(menu) => (
        <>
          {menu}
          {loadingMore && (
            <div className="kit-select-loading">
              <Spin size="small" />
            </div>
          )}
        </>
      )}
    />
  );
}
