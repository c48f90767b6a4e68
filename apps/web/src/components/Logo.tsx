import { Link } from 'react-router';
import { useContestName } from '../lib/contest-name';
import logoUrl from '../assets/logo.svg';

export interface LogoProps {
  /** Where a click goes; each area passes its own home. */
  to?: string;
  /** Text shown next to the emblem; defaults to the contest name of 大赛设置. */
  name?: string;
  className?: string;
}

export function Logo({ to = '/', name, className }: LogoProps) {
  const contestName = useContestName();
  const label = name ?? contestName;
  // Named by aria-label too: narrow layouts hide the text and leave only the emblem.
  return (
    <Link to={to} className={['app-logo', className].filter(Boolean).join(' ')} aria-label={label}>
      <img className="app-logo__mark" src={logoUrl} alt="" width={40} height={40} />
      <span className="app-logo__name">{label}</span>
    </Link>
  );
}
