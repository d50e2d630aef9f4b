import { PageHeader } from '../../../components/page-header.tsx';
import { SUPPORT_EMAIL } from '../../../lib/config.ts';
import { ContactForm } from './contact-form.tsx';

export function ContactPage() {
  return (
    <div className="container page">
      <PageHeader title="Contact us" lead="Questions about a deal, a payment or a partnership? We're here to help." />
      <div
        style={{
          display: 'grid',
          gap: '2rem',
          gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 20rem), 1fr))',
          alignItems: 'start',
        }}
      >
        <ContactForm />
        <aside className="card" aria-labelledby="business-hours">
          <h2 id="business-hours">Business hours</h2>
          <p>
            Monday – Friday: 9:00 AM – 6:00 PM (Pacific Time)
            <br />
            Saturday: 10:00 AM – 4:00 PM (Pacific Time)
            <br />
            Sunday: Closed
          </p>
          <p className="muted">We answer every message within 24 hours.</p>
          <h2>Email</h2>
          <p>
            <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
          </p>
        </aside>
      </div>
    </div>
  );
}
