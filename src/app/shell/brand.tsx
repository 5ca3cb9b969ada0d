/** The variant's logo in a shell's top bar: a link home when signed in, else the logo alone. */
import { Link } from '@tanstack/react-router';
import { Logo } from '../../ui/logo.tsx';
import './shell.css';

export function Brand({ home = true }: { home?: boolean }) {
  return home ? (
    <Link to="/home" className="brand">
      <Logo />
    </Link>
  ) : (
    <span className="brand">
      <Logo />
    </span>
  );
}
