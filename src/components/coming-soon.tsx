import { Link } from 'react-router-dom';
import { PageHeader } from './page-header.tsx';

/** The honest placeholder for a route whose feature lands in a later release. */
export function ComingSoon({ title, description }: { title: string; description?: string }) {
  return (
    <div className="container coming-soon page">
      <div className="card">
        <PageHeader title={title} />
        <p className="muted">{description ?? 'This part of Pacta is coming soon.'}</p>
        <p>
          <Link className="button button-secondary" to="/">
            Back to home
          </Link>
        </p>
      </div>
    </div>
  );
}
