import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';
import { menuRole, useAuth } from '../../lib/session/auth-context.ts';

type Tool = { to: string; title: string; text: string; only?: 'brand' | 'creator' };

/** The growth hub's tools, each on its own route; a tool for one role only is offered to that role only. */
const GROWTH_TOOLS: Tool[] = [
  { to: '/analytics', title: 'Analytics', text: 'How your deals and profile perform over time.' },
  {
    to: '/campaign-brief-builder',
    title: 'Campaign Brief Builder',
    text: 'Turn an idea into a brief creators can act on.',
    only: 'brand',
  },
  { to: '/suggestions', title: 'Smart Suggestions', text: 'Daily suggestions for deals, pricing and your profile.' },
  { to: '/performance', title: 'Performance', text: 'Results of completed deals at a glance.' },
  { to: '/brand-matching', title: 'Brand Matching', text: 'Brands whose deals fit your niches.', only: 'creator' },
  { to: '/content-calendar', title: 'Content Calendar', text: 'Plan deliverables and deadlines in one place.' },
];

export function GrowthHubPage() {
  const role = menuRole(useAuth());
  const tools = GROWTH_TOOLS.filter((tool) => !tool.only || tool.only === role);
  return (
    <div className="container page">
      <PageHeader title="Growth tools" lead="Tools to grow your sponsorship business on Pacta." />
      <ul className="grid grid-wide" style={{ listStyle: 'none', padding: 0 }}>
        {tools.map((tool) => (
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
