import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';

const FIGURES = [
  { value: '10K+', label: 'creators' },
  { value: '500+', label: 'brands' },
  { value: '$2M+', label: 'deals closed' },
  { value: '95%', label: 'satisfaction' },
];

const VALUES = [
  {
    title: 'Safe by default',
    text: 'Every paid deal runs through built-in escrow: the brand funds it up front, the creator is paid when the work is delivered, and disputes have a clear path.',
  },
  {
    title: 'Fair and transparent',
    text: 'One published fee schedule for everyone. You see the service fee and the commission before you agree to anything.',
  },
  {
    title: 'Works where you work',
    text: 'Pacta is an installable app that keeps working offline: swipe deals on a train, draft a brief on a plane, and it syncs when you are back online.',
  },
];

export function AboutPage() {
  return (
    <div className="container page">
      <PageHeader
        title="About Pacta"
        lead="Pacta connects content creators with brands. Brands publish paid sponsorship deals, creators apply, and built-in escrow keeps both sides safe."
      />
      <section aria-labelledby="figures" className="grid" style={{ marginBottom: '3rem' }}>
        <h2 id="figures" className="visually-hidden">
          Pacta in figures
        </h2>
        {FIGURES.map((f) => (
          <div key={f.label} className="card">
            <p className="stat">{f.value}</p>
            <p className="muted" style={{ margin: 0 }}>
              {f.label}
            </p>
          </div>
        ))}
      </section>
      <section aria-labelledby="values">
        <h2 id="values">What we stand for</h2>
        <div className="grid">
          {VALUES.map((v) => (
            <article key={v.title} className="card">
              <h3>{v.title}</h3>
              <p style={{ margin: 0 }}>{v.text}</p>
            </article>
          ))}
        </div>
      </section>
      <section className="prose" aria-labelledby="story" style={{ marginTop: '3rem' }}>
        <h2 id="story">Our story</h2>
        <p>
          Sponsorship deals used to live in direct messages and spreadsheets, with payments chased for weeks. We built Pacta so that
          a deal is a clear agreement: what is delivered, for how much, and when the money moves.
        </p>
        <p>
          Want to work with us? See our <Link to="/careers">open roles</Link> or <Link to="/contact">get in touch</Link>.
        </p>
      </section>
    </div>
  );
}
