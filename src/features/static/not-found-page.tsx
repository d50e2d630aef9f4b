import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';

export function NotFoundPage() {
  return (
    <div className="container page coming-soon">
      <div className="card">
        <PageHeader title="Page not found" />
        <p className="muted">The page you are looking for does not exist or has moved.</p>
        <Link className="button button-primary" to="/">
          Go to the home page
        </Link>
      </div>
    </div>
  );
}
