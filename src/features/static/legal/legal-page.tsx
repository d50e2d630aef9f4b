import type { ReactNode } from 'react';
import { PageHeader } from '../../../components/page-header.tsx';

/** Shared frame of the legal pages: title, last-updated date, readable column. */
export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <div className="container page prose">
      <PageHeader title={title}>
        <p className="muted">Last updated {updated}</p>
      </PageHeader>
      {children}
    </div>
  );
}

export const LEGAL_UPDATED = 'November 1, 2026';
