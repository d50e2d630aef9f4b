import { Suspense, useCallback, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { BellIcon, CloseIcon, InboxIcon, MenuIcon, PactaMark } from '../../components/icons.tsx';
import { lazyPage } from '../lazy-page.ts';
import { SyncStatusIndicator } from '../../components/sync-status/sync-status.tsx';
import { InstallButton } from '../pwa/install-button.tsx';
import { menuRole, useAuth } from '../../lib/session/auth-context.ts';
import { MobileMenu } from './mobile-menu.tsx';
import { mainNavItems } from './nav-items.ts';
import { useSignOut } from './use-sign-out.ts';
import { ViewToggle } from './view-toggle.tsx';

// The bell and the inbox icon read the local database: loaded only once someone is signed in, so a
// signed-out visitor's landing page never downloads RxDB.
const NotificationBell = lazyPage(() => import('../../features/inbox/index.ts'), 'NotificationBell');
const InboxNavLink = lazyPage(() => import('../../features/inbox/index.ts'), 'InboxNavLink');

export function NavBar() {
  const auth = useAuth();
  const role = menuRole(auth);
  const staff = auth.status === 'signed_in' && auth.role === 'admin';
  const signOut = useSignOut();
  // The address the mobile menu was opened on (null: closed).
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn !== null;
  const menuButton = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  // Escape closes the menu and gives focus back to the button that opened it.
  const closeMenu = useCallback(() => {
    setMenuOpenOn(null);
    menuButton.current?.focus();
  }, []);

  // Navigating away closes the mobile menu. The router renders a navigation as a transition: the
  // address bar already shows the new page while the screen (this bar's `location` included) still
  // shows the old one until the new page has loaded — right after sign-in, for instance. A menu opened
  // in that moment belongs to the new address, so the navigation it arrives with does not close it.
  const [shownPath, setShownPath] = useState(location.pathname);
  if (location.pathname !== shownPath) {
    setShownPath(location.pathname);
    if (menuOpenOn !== null && menuOpenOn !== location.pathname) setMenuOpenOn(null);
  }

  return (
    <header className="site-header">
      <nav
        className={['container nav', auth.isAdmin ? 'nav-admin' : '', role === 'creator' ? 'nav-creator' : '']
          .join(' ')
          .trim()}
        aria-label="Main"
      >
        <Link to="/" className="brand-mark" aria-label="Pacta home">
          <PactaMark />
          <span aria-hidden="true">Pacta</span>
        </Link>
        {auth.status !== 'loading' ? (
          <ul className="nav-links">
            {mainNavItems(role, staff).map((item) => (
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
              {/* The dashboard has its own toggle beside Create New Deal: one toggle per screen. */}
              {location.pathname !== '/dashboard' ? (
                <span className="desktop-only">
                  <ViewToggle compact />
                </span>
              ) : null}
              <SyncStatusIndicator />
              <Suspense
                fallback={
                  <>
                    <Link className="icon-button" to="/notifications" aria-label="Notifications">
                      <BellIcon />
                    </Link>
                    <Link className="icon-button" to="/inbox" aria-label="Inbox">
                      <InboxIcon />
                    </Link>
                  </>
                }
              >
                <NotificationBell />
                <InboxNavLink />
              </Suspense>
              <button
                type="button"
                className="button button-secondary button-small desktop-only"
                onClick={() => void signOut()}
              >
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
            onClick={() => setMenuOpenOn((openOn) => (openOn === null ? window.location.pathname : null))}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </nav>
      {menuOpen ? <MobileMenu role={role} staff={staff} onClose={closeMenu} onSignOut={signOut} /> : null}
    </header>
  );
}
