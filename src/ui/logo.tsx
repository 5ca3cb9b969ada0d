/**
 * The active variant's logo: its mark (variants/assets/<id>.svg, chosen at build time by
 * variants/vite-plugin.ts) and its project name as a wordmark in the app's own font (text inside
 * an SVG image could not use the self-hosted font). One accessible name, the project name, for
 * the whole: a link around the logo is announced as the brand, not as "image".
 */
import logoUrl from 'virtual:variant-logo';
import { activeVariant } from '../../variants/index.ts';

export interface LogoProps {
  size?: 'sm' | 'md' | 'lg';
  /** false: the mark only (a narrow header); the project name stays its accessible name */
  showName?: boolean;
  className?: string;
}

export function Logo({ size = 'md', showName = true, className }: LogoProps) {
  const name = activeVariant.projectName;
  return (
    <span role="img" aria-label={name} className={['logo', `logo-${size}`, className].filter(Boolean).join(' ')}>
      <img className="logo-mark" src={logoUrl} alt="" width={32} height={32} />
      {showName ? <span className="logo-name">{name}</span> : null}
    </span>
  );
}
