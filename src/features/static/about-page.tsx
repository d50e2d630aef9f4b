import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';
import { COMMISSION_BP, PRO_COMMISSION_BP, SERVICE_FEE_BP, formatRate } from '../../domain/fees.ts';
import { NICHES } from '../../domain/niches.ts';

/**
 * Figures that are true of every Pacta, a fresh demo included: its terms, not a user count. (The
 * marketing numbers of the original design — creators, brands, money closed — would be claims no
 * demo or new deployment can back.)
 */
const FIGURES = [
  { value: formatRate(SERVICE_FEE_BP), label: 'service fee for brands, shown before they pay' },
  { value: formatRate(COMMISSION_BP), label: `commission from creators (${formatRate(PRO_COMMISSION_BP)} with Pro)` },
  { value: String(NICHES.length), label: 'niches to match creators and deals' },
  { value: '100%', label: 'of paid deals held in escrow until the work is done' },
];

const VALUES = [
  {
    title: 'Safe by default',
    text:
      'Every paid deal runs through built-in escrow: the brand funds it up front, ' +
      'the creator is paid when the work is delivered, and disputes have a clear path.',
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
        <div className="grid grid-fit">
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
          Sponsorship deals used to live in direct messages and spreadsheets, with payments chased for weeks. We built
          Pacta so that a deal is a clear agreement: what is delivered, for how much, and when the money moves.
        </p>
        <p>
          Want to work with us? See our <Link to="/careers">open roles</Link> or <Link to="/contact">get in touch</Link>
          .
        </p>
      </section>
    </div>
  );
}
