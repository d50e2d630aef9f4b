import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';

const ROLES = [
  {
    id: 'senior-frontend-engineer',
    title: 'Senior Frontend Engineer',
    team: 'Engineering',
    location: 'Remote',
    type: 'Full-time',
    summary: 'Own the offline-first Pacta app: React, local data and sync.',
  },
  {
    id: 'backend-engineer',
    title: 'Backend Engineer',
    team: 'Engineering',
    location: 'Remote',
    type: 'Full-time',
    summary: 'Build the sync server, escrow payments and the Postgres data model.',
  },
  {
    id: 'creator-partnerships-manager',
    title: 'Creator Partnerships Manager',
    team: 'Partnerships',
    location: 'Los Angeles, CA',
    type: 'Full-time',
    summary: 'Grow and support our creator community across every niche.',
  },
  {
    id: 'trust-and-safety-specialist',
    title: 'Trust & Safety Specialist',
    team: 'Operations',
    location: 'Remote',
    type: 'Full-time',
    summary: 'Resolve payment disputes fairly and keep the marketplace safe.',
  },
];

export function CareersPage() {
  return (
    <div className="container page">
      <PageHeader
        title="Careers"
        lead="Help creators and brands make deals they can trust. We are a small, remote-friendly team."
      />
      <h2>Open roles</h2>
      <ul className="grid" style={{ listStyle: 'none', padding: 0 }}>
        {ROLES.map((role) => (
          <li key={role.id} className="card">
            <h3>{role.title}</h3>
            <p className="muted" style={{ marginBottom: '0.5rem' }}>
              {role.team} · {role.location} · {role.type}
            </p>
            <p>{role.summary}</p>
            <a
              className="button button-secondary button-small"
              href={`mailto:careers@pacta.app?subject=${encodeURIComponent(`Application: ${role.title}`)}`}
              aria-label={`Apply Now for ${role.title}`}
            >
              Apply Now
            </a>
          </li>
        ))}
      </ul>
      <p className="muted">
        Don't see your role? <Link to="/contact">Tell us about yourself</Link>.
      </p>
    </div>
  );
}
