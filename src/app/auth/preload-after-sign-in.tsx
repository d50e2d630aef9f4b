import { useEffect, type ReactNode } from 'react';
import { loadLocalDataManager } from '../../db/local-data-manager-loader.ts';
import { DashboardPage } from '../pages.ts';

/**
 * Wraps the sign-in screen: while the user types, the code the next screen needs loads (the dashboard
 * and the local database), so after "Sign in" only the data is waited for, not the scripts.
 */
export function PreloadAfterSignIn({ children }: { children: ReactNode }) {
  useEffect(() => {
    DashboardPage.preload();
    void loadLocalDataManager().catch(() => {
      // Loaded again when it is needed; a failure then shows where it matters.
    });
  }, []);
  return <>{children}</>;
}
