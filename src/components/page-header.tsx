import type { ReactNode } from 'react';
import { usePageTitle } from '../lib/use-page-title.ts';

/** The page's one h1 with an optional lead paragraph; also sets the document title. */
export function PageHeader({ title, lead, children }: { title: string; lead?: ReactNode; children?: ReactNode }) {
  usePageTitle(title);
  return (
    <header className="page-header">
      <h1>{title}</h1>
      {lead ? <p className="lead">{lead}</p> : null}
      {children}
    </header>
  );
}
