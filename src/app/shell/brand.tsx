/** The variant's brand in a shell's top bar: a link home when signed in, else the name alone. */
import { Link } from '@tanstack/react-router';
import { activeVariant } from '../../../variants/index.ts';
import './shell.css';

export function Brand({ home = true }: { home?: boolean }) {
  const content = <span className="brand-name">{activeVariant.projectName}</span>;
  return home ? (
    <Link to="/home" className="brand">
      {content}
    </Link>
  ) : (
    <span className="brand">{content}</span>
  );
}
