import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { BellIcon, CloseIcon, InboxIcon, MenuIcon, PactaMark } from '../../components/icons.tsx';
import { SyncStatusIndicator } from '../../components/sync-status/sync-status.tsx';
import { InstallButton } from '../pwa/install-button.tsx';
import { menuRole, useAuth } from '../../lib/session/auth-context.ts';
import { MobileMenu } from './mobile-menu.tsx';
import { mainNavItems } from './nav-items.ts';
import { useSignOut } from './use-sign-out.ts';
import { ViewToggle } from './view-toggle.tsx';

export function NavBar() {
  const auth = useAuth();
  const role = menuRole(auth);
  const signOut = useSignOut();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  // Escape closes the menu and gives focus back to the button that opened it.
  const closeMenu = useCallback(() => {
    setMenuOpen(false);
    menuButton.current?.focus();
  }, []);

  // Any navigation closes the mobile menu.
  useEffect(() => setMenuOpen(false), [location.pathname]);

  return (
    <header className="site-header">
      <nav className="container nav" aria-label="Main">
        <Link to="/" className="brand-mark" aria-label="Pacta home">
          <PactaMark />
          <span aria-hidden="true">Pacta</span>
        </Link>
        {auth.status !== 'loading' ? (
          <ul className="nav-links">
            {mainNavItems(role).map((item) => (
              <li key={item.to}>
                <NavLink className="nav-link" to={item.to}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="nav-actions">
          <span className="desktop-only">
            <InstallButton />
          </span>
          {role ? (
            <>
              <span className="desktop-only">
                <ViewToggle />
              </span>
              <SyncStatusIndicator />
              <Link className="icon-button" to="/notifications" aria-label="Notifications">
                <BellIcon />
              </Link>
              <Link className="icon-button" to="/inbox" aria-label="Inbox (unread messages)">
                <InboxIcon />
                <span className="unread-dot" aria-hidden="true" />
              </Link>
              <button type="button" className="button button-secondary button-small desktop-only" onClick={() => void signOut()}>
                Sign Out
              </button>
            </>
          ) : null}
          <button
            ref={menuButton}
            type="button"
            className="icon-button menu-button"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </nav>
      {menuOpen ? <MobileMenu role={role} onClose={closeMenu} onSignOut={signOut} /> : null}
    </header>
  );
}
