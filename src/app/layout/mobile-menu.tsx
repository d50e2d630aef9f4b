import { useEffect, useRef } from 'react';
import { NavLink } from 'react-router-dom';
import type { ViewAs } from '../../lib/session/auth-context.ts';
import { InstallButton } from '../pwa/install-button.tsx';
import { mobileMenuSections } from './nav-items.ts';
import { ViewToggle } from './view-toggle.tsx';

/** The small-screen menu: the same links as the bar plus Quick Actions. Escape closes it. */
export function MobileMenu({
  role,
  staff,
  onClose,
  onSignOut,
}: {
  role: ViewAs | null;
  staff: boolean;
  onClose: () => void;
  onSignOut: () => Promise<void>;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const sections = mobileMenuSections(role, staff);

  useEffect(() => {
    panel.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div id="mobile-menu" className="mobile-menu" ref={panel}>
      <div className="container">
        <h2 id="mobile-menu-main">Menu</h2>
        <ul aria-labelledby="mobile-menu-main">
          {sections.main.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to}>{item.label}</NavLink>
            </li>
          ))}
        </ul>
        <h2 id="mobile-menu-quick">Quick Actions</h2>
        <ul aria-labelledby="mobile-menu-quick">
          {sections.quick.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to}>{item.label}</NavLink>
            </li>
          ))}
        </ul>
        <div style={{ display: 'flex', gap: '0.75rem', flexWrap: 'wrap', marginTop: '1rem' }}>
          <ViewToggle />
          <InstallButton />
          {role ? (
            <button type="button" className="button button-secondary button-small" onClick={() => void onSignOut()}>
              Sign Out
            </button>
          ) : null}
        </div>
      </div>
    </div>
  );
}
