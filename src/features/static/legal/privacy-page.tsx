import { Link } from 'react-router-dom';
import { LEGAL_UPDATED, LegalPage } from './legal-page.tsx';

export function PrivacyPage() {
  return (
    <LegalPage title="Privacy Policy" updated={LEGAL_UPDATED}>
      <p>This policy explains what Pacta collects, why, and the choices you have.</p>
      <h2>What we collect</h2>
      <ul>
        <li>Account data: your name, e-mail address, role and password (stored only as a secure hash).</li>
        <li>Profile data you choose to share: bio, niches, social links, region and audience figures.</li>
        <li>Marketplace data: deals, applications, messages, reviews, support tickets and payments.</li>
        <li>Technical data: the device and browser you use, kept in server logs for security for a limited time.</li>
      </ul>
      <h2>How we use it</h2>
      <p>
        To run the marketplace: show your profile to the other side of a deal, match deals and creators, hold and
        release escrow payments, resolve disputes, and keep the service secure. We do not sell your personal data.
      </p>
      <h2>Data on your device</h2>
      <p>
        Pacta works offline. When you are signed in, a copy of your deals, messages and drafts is kept in your browser's
        storage so the app opens without a connection; it is removed when you sign out. See the{' '}
        <Link to="/cookies">Cookie Policy</Link>.
      </p>
      <h2>Sharing</h2>
      <p>
        We share data only with the payment provider that processes deal payments, and with service providers bound by
        contract.
      </p>
      <h2>Your rights</h2>
      <p>
        You can see and correct your profile in Settings, export or delete your account, and object to processing.{' '}
        <Link to="/contact">Contact us</Link> for any request; we answer within 30 days.
      </p>
    </LegalPage>
  );
}
