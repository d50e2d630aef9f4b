import { Link } from 'react-router-dom';
import { PactaMark } from '../../components/icons.tsx';
import { ThemePicker } from '../../components/theme-picker.tsx';
import { FOOTER_COLUMNS } from './nav-items.ts';

/** Three columns (Company, Support, Legal) on every page except the landing page. */
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="footer-columns">
          <div>
            <Link to="/" className="brand-mark" aria-label="Pacta home">
              <PactaMark />
              <span aria-hidden="true">Pacta</span>
            </Link>
            <p className="muted">
              Sponsorship deals between creators and brands, with built-in escrow and dispute resolution.
            </p>
          </div>
          {FOOTER_COLUMNS.map((column) => (
            <nav key={column.heading} aria-labelledby={`footer-${column.heading}`}>
              <h2 id={`footer-${column.heading}`}>{column.heading}</h2>
              <ul>
                {column.links.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to}>{link.label}</Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="footer-bottom">
          <p style={{ margin: 0 }}>© {new Date().getFullYear()} Pacta. Deals made outside Pacta are not protected.</p>
          <ThemePicker variant="select" />
        </div>
      </div>
    </footer>
  );
}
