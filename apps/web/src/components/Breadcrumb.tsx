import { PlainButton } from './plain-button/PlainButton';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useLocation, useMatches, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NAMESPACES } from '../i18n/namespaces';
import type { TitleKey } from '../lib/route-handle';

/** What a route adds to its handle to appear in the breadcrumb: its trail of labels, outermost first. */
export interface BreadcrumbHandle {
  breadcrumb?: readonly TitleKey[];
}

/**
 * docs/rules/screens.md, "Public site": the back arrow shows when the current path is not a top-level menu path
 * and the history holds more than two entries (with fewer, "back" would leave the portal).
 */
export function shouldShowBack(pathname: string, topLevelPaths: readonly string[], historyLength: number): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return !topLevelPaths.includes(path) && historyLength > 2;
}

function trailOf(handle: unknown): readonly TitleKey[] | null {
  if (typeof handle !== 'object' || handle === null) return null;
  const trail = (handle as BreadcrumbHandle).breadcrumb;
  return Array.isArray(trail) && trail.length > 0 ? trail : null;
}

/** The deepest matched route's breadcrumb trail; null when no route declares one. */
export function useBreadcrumbTrail(): readonly TitleKey[] | null {
  let trail: readonly TitleKey[] | null = null;
  for (const match of useMatches()) trail = trailOf(match.handle) ?? trail;
  return trail;
}

// Inline so the component needs no stylesheet of its own; layouts style the label.
const ROW = { display: 'flex', alignItems: 'center', gap: 4, minWidth: 0 } as const;

function currentHistoryLength(): number {
  try {
    return window.history.length;
  } catch {
    return 0;
  }
}

export interface BreadcrumbProps {
  /** Menu paths of the layout: no back arrow on them. */
  topLevelPaths: readonly string[];
  /** Replaces the trail's last label (a title that comes from data, e.g. the /module menu name). */
  label?: string;
  className?: string;
}

/** The last breadcrumb label, with a back arrow below the top level. Renders nothing without a label. */
export function Breadcrumb({ topLevelPaths, label, className }: BreadcrumbProps) {
  const { t } = useTranslation(NAMESPACES);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const trail = useBreadcrumbTrail();
  const last = trail?.[trail.length - 1];
  const text = label || (last ? t(last) : '');
  if (!text) return null;
  const back = shouldShowBack(pathname, topLevelPaths, currentHistoryLength());
  return (
    <div className={['app-breadcrumb', className].filter(Boolean).join(' ')} data-testid="breadcrumb" style={ROW}>
      {back && (
        <PlainButton
          type="text"
          size="small"
          className="app-breadcrumb__back"
          icon={<ArrowLeftOutlined />}
          aria-label={t('common:actions.back')}
          data-testid="breadcrumb-back"
          onClick={() => void navigate(-1)}
        />
      )}
      <span className="app-breadcrumb__label" aria-current="page">
        {text}
      </span>
    </div>
  );
}
