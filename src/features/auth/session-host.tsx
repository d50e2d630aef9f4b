import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { SessionErrorDialog } from './session-error-dialog.tsx';
import { SessionLoadingOverlay } from './session-loading-overlay.tsx';
import { SignOutPrompt } from './sign-out-prompt.tsx';
import { useAnnouncedSession } from '../../lib/session/use-announced-session.ts';

/**
 * Mounted once inside the router on every page: gives the session manager the router's navigate,
 * and shows the loading overlay, the session-error dialog and the sign-out prompt when they apply.
 */
export function SessionHost() {
  const { manager, state } = useAnnouncedSession();
  const navigate = useNavigate();

  useEffect(() => {
    if (!manager) return;
    manager.setNavigator((path, navState) => navigate(path, { replace: true, state: navState }));
    return () => manager.setNavigator(undefined);
  }, [manager, navigate]);

  if (!manager || !state) return null;
  return (
    <>
      <SessionLoadingOverlay manager={manager} state={state} />
      <SessionErrorDialog manager={manager} state={state} />
      <SignOutPrompt manager={manager} state={state} />
    </>
  );
}
