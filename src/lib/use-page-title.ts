import { useEffect } from 'react';
import { APP_NAME } from './config.ts';

/** Sets the document title ("About · Pacta"); screen readers announce it on navigation. */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : `${APP_NAME} — sponsorship deals with built-in escrow`;
  }, [title]);
}
