import { Link } from 'react-router-dom';
import type { OfferParty } from '../../domain/collections/index.ts';
import { useDealWork } from './data/use-dashboard-data.ts';
import { waitingLines, type WaitingLine } from './work-waiting.ts';

function Lines({ lines, label }: { lines: WaitingLine[]; label: string }) {
  return (
    <ul className="waiting-list" aria-label={label}>
      {lines.map((l) => (
        <li key={l.text}>{l.dealId ? <Link to={`/deals/${l.dealId}`}>{l.text}</Link> : l.text}</li>
      ))}
    </ul>
  );
}

/** "What waits on whom": the deals' next steps on this side, then those the other side owes. */
export function WorkWaitingCard({ userId, side }: { userId: string; side: OfferParty }) {
  const work = useDealWork(userId, side);
  if (!work.data) return null;
  const { mine, theirs } = waitingLines(work.data, side);
  if (mine.length === 0 && theirs.length === 0) return null;
  return (
    <section className="card dashboard-waiting" aria-labelledby="waiting-title" data-testid="work-waiting">
      <h2 id="waiting-title">What waits on whom</h2>
      <h3>Waiting on you</h3>
      {mine.length ? <Lines lines={mine} label="Waiting on you" /> : <p className="muted">Nothing right now.</p>}
      {theirs.length ? (
        <>
          <h3>Waiting on {side === 'creator' ? 'brands' : 'creators'}</h3>
          <Lines lines={theirs} label={`Waiting on ${side === 'creator' ? 'brands' : 'creators'}`} />
        </>
      ) : null}
    </section>
  );
}
