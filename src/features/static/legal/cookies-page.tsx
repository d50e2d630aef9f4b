import { LEGAL_UPDATED, LegalPage } from './legal-page.tsx';

const STORAGE = [
  {
    name: 'Session',
    where: 'Local or session storage',
    why: 'Keeps you signed in (until you close the browser when Remember me is off).',
  },
  {
    name: 'Local database',
    where: 'IndexedDB',
    why: 'Your deals, messages and drafts, so Pacta works offline; cleared on sign-out.',
  },
  {
    name: 'App files',
    where: 'Cache storage (service worker)',
    why: 'The app itself, so it opens instantly and offline.',
  },
  { name: 'Theme', where: 'Local storage', why: 'Remembers the colour theme you picked on this device.' },
];

export function CookiesPage() {
  return (
    <LegalPage title="Cookie Policy" updated={LEGAL_UPDATED}>
      <p>
        Pacta uses no advertising or third-party tracking cookies. We only store what the app needs to work on your
        device:
      </p>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">What</th>
            <th scope="col">Where</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {STORAGE.map((row) => (
            <tr key={row.name}>
              <th scope="row">{row.name}</th>
              <td>{row.where}</td>
              <td>{row.why}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Your choices</h2>
      <p>
        You can clear this data in your browser's settings at any time. Clearing it signs you out, and changes not yet
        synced are lost, so sign out from Pacta first.
      </p>
    </LegalPage>
  );
}
