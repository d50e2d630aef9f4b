import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../../components/page-header.tsx';
import '../growth.css';

/** The frame of a growth tool: its title, what it is for, the way back to the hub. */
export function ToolPage({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  return (
    <div className="container page growth-page growth-tool">
      <p className="growth-back">
        <Link to="/growth">← Growth tools</Link>
      </p>
      <PageHeader title={title} lead={lead} />
      {children}
    </div>
  );
}

export function ToolLoading() {
  return (
    <p className="muted" role="status">
      Loading your data…
    </p>
  );
}

export function ToolError() {
  return (
    <p className="callout callout-warning" role="alert">
      Your local data could not be read. Try reloading the page.
    </p>
  );
}

export function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <div className="card growth-figure">
      <dt>{label}</dt>
      <dd className="stat">{value}</dd>
      {hint ? <dd className="muted growth-figure-hint">{hint}</dd> : null}
    </div>
  );
}
