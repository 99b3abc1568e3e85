import type { ReactNode } from 'react';
import { BrandMark } from '../../components/light/brand-mark';
import { useNavigation } from '../../components/light/navigation';
import { ensureLightStyles } from '../../components/light/styles';

ensureLightStyles();

interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Wider card for the eight-field sign-up form. */
  wide?: boolean;
}

/**
 * The frame of every auth screen: brand link home, a titled card, and the page's one h1. Plain elements with
 * light.css's classes, no Chakra runtime (docs/adr/0168): the same markup as Chakra's Container, Card and
 * Heading drew.
 */
export function AuthLayout({ title, subtitle, children, wide = false }: AuthLayoutProps) {
  const { Link } = useNavigation();
  return (
    <main className="lt-main">
      <div className="lt-container" data-wide={wide || undefined}>
        <div className="lt-stack lt-gap-6">
          <Link to="/" aria-label="Storewise home" className="lt-link lt-brand lt-self-center">
            <span className="lt-row lt-gap-2">
              <BrandMark />
              <span className="lt-brand-name">Storewise</span>
            </span>
          </Link>
          <div className="lt-card">
            <div className="lt-card-header">
              <h1 className="lt-heading">{title}</h1>
              {subtitle && <p className="lt-muted">{subtitle}</p>}
            </div>
            <div className="lt-card-body">{children}</div>
          </div>
        </div>
      </div>
    </main>
  );
}
