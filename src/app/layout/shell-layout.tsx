import { Suspense, useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { PageLoading } from '../../components/page-loading.tsx';
import { Toaster } from '../../components/toaster.tsx';
import { SessionHost } from '../../features/auth/session-host.tsx';
import { UpdatePrompt } from '../pwa/update-prompt.tsx';
import { NavBar } from './nav-bar.tsx';
import { SiteFooter } from './site-footer.tsx';

/**
 * Every page: skip link, navigation bar, the page in <main>, the footer (not on the landing page),
 * toasts and the update prompt. After an in-app navigation to another page focus moves to <main> so
 * keyboard and screen-reader users start at the new page's content; a change of the same page's
 * query (a search typed on /deals writes each letter to the address) leaves focus where it is.
 */
export function ShellLayout({ footer }: { footer: boolean }) {
  const main = useRef<HTMLElement>(null);
  const location = useLocation();
  const shownPath = useRef(location.pathname);

  useEffect(() => {
    const samePage = shownPath.current === location.pathname;
    shownPath.current = location.pathname;
    // 'default' is the page the browser opened: leave focus alone there.
    if (location.key !== 'default' && !samePage) main.current?.focus({ preventScroll: true });
  }, [location.key, location.pathname]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <NavBar />
      <main id="main" ref={main} tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      {footer ? <SiteFooter /> : null}
      <Toaster />
      <UpdatePrompt />
      <SessionHost />
      <ScrollRestoration />
    </>
  );
}
