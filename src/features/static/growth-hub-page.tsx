import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';

/** The growth hub's tools; each has its own route, with its screen still to come. */
export const GROWTH_TOOLS = [
  { to: '/analytics', title: 'Analytics', text: 'How your deals and profile perform over time.' },
  {
    to: '/campaign-brief-builder',
    title: 'Campaign Brief Builder',
    text: 'Turn an idea into a brief creators can act on.',
  },
  { to: '/suggestions', title: 'Smart Suggestions', text: 'Daily suggestions for deals, pricing and your profile.' },
  { to: '/performance', title: 'Performance', text: 'Results of completed deals at a glance.' },
  { to: '/brand-matching', title: 'Brand Matching', text: 'Brands and creators that fit your niches.' },
  { to: '/content-calendar', title: 'Content Calendar', text: 'Plan deliverables and deadlines in one place.' },
];

export function GrowthHubPage() {
  return (
    <div className="container page">
      <PageHeader title="Growth tools" lead="Tools to grow your sponsorship business on Pacta." />
      <ul className="grid grid-wide" style={{ listStyle: 'none', padding: 0 }}>
        {GROWTH_TOOLS.map((tool) => (
          <li key={tool.to} className="card">
            <h2 style={{ fontSize: '1.15rem' }}>
              <Link to={tool.to}>{tool.title}</Link>
            </h2>
            <p className="muted" style={{ margin: 0 }}>
              {tool.text}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}
