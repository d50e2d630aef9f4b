import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { PactaDatabase } from '../../../db/index.ts';
import type { ApplicationDocument, DealDocument } from '../../../domain/collections/index.ts';
import { formatUsd, parseUsdToCents } from '../../../domain/fees.ts';
import { toastError, toastSuccess } from '../../../lib/toasts.ts';
import { FormError } from '../../../components/form-error.tsx';
import { applyToDeal, DealActionError, withdrawApplication } from '../data/deal-operations.ts';
import { isWaitingToSync } from '../data/use-deal-data.ts';
import { statusLabel } from './applicant-facts.ts';
import { RejectionNotice } from './rejection-notice.tsx';

/** "Redirects after apply wait 2 s." */
const REDIRECT_AFTER_APPLY_MS = 2_000;

/** The creator's side of a deal: Apply, or the own application's status (and why it was refused). */
export function ApplySection({
  db,
  deal,
  creatorId,
  application,
}: {
  db: PactaDatabase;
  deal: DealDocument;
  creatorId: string;
  application: ApplicationDocument | null;
}) {
  const navigate = useNavigate();
  const uid = useId();
  const [price, setPrice] = useState(() => (deal.amount_cents / 100).toFixed(2).replace(/\.00$/, ''));
  const [pitch, setPitch] = useState('');
  const [priceError, setPriceError] = useState<string | null>(null);
  const closed = deal.status === 'completed' || deal.status === 'cancelled';
  const [applying, setApplying] = useState(false);
  const [applied, setApplied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function apply(event: FormEvent) {
    event.preventDefault();
    const cents = parseUsdToCents(price);
    if (cents === undefined || cents < 100) {
      setPriceError('Enter your price in dollars, at least $1 (like 250 or 249.99).');
      return;
    }
    setPriceError(null);
    setApplying(true);
    try {
      await applyToDeal(db, creatorId, deal.id, { proposedPriceCents: cents, pitch });
      setApplied(true);
      toastSuccess('Application submitted!');
      timer.current = setTimeout(() => navigate('/dashboard'), REDIRECT_AFTER_APPLY_MS);
    } catch (error) {
      if (!(error instanceof DealActionError)) console.warn('apply failed', error);
      toastError(error instanceof DealActionError ? error.message : 'Failed to apply to deal. Please try again.');
    } finally {
      setApplying(false);
    }
  }

  return (
    <section className="card detail-section apply-section" aria-labelledby="apply-heading">
      <h2 id="apply-heading">Your application</h2>
      {application ? (
        <>
          <p className="application-status" data-testid="my-application-status">
            Status:{' '}
            <span className={`badge badge-status-${application.status}`}>{statusLabel(application.status)}</span>
            {isWaitingToSync(application) && !application.sync_rejection ? (
              <span className="badge badge-pending">Waiting to sync</span>
            ) : null}
          </p>
          {application.sync_rejection ? (
            <RejectionNotice what="application" message={application.sync_rejection.message} />
          ) : (
            <p>
              <Link
                to={`/inbox/new?with=${encodeURIComponent(deal.brand_id)}&deal=${encodeURIComponent(deal.id)}`}
                className="button button-secondary"
              >
                Message brand
              </Link>
            </p>
          )}
          {application.status === 'pending' && !application.sync_rejection && !closed ? (
            <WithdrawApplication db={db} applicationId={application.id} />
          ) : null}
          {applied ? (
            <p className="muted" role="status">
              Application submitted! Taking you to your dashboard...
            </p>
          ) : null}
        </>
      ) : deal.status !== 'open' ? (
        <p className="muted">This deal is no longer open for applications.</p>
      ) : (
        <>
          <p className="muted">You have not applied to this deal yet.</p>
          <form className="form" onSubmit={(e) => void apply(e)} noValidate>
            <div className="field">
              <label htmlFor={`${uid}-price`}>Your price ($)</label>
              <input
                id={`${uid}-price`}
                type="text"
                inputMode="decimal"
                value={price}
                onChange={(e) => setPrice(e.target.value)}
                aria-describedby={`${uid}-price-hint`}
              />
              <p className="field-hint muted" id={`${uid}-price-hint`}>
                The deal pays {formatUsd(deal.amount_cents)}; propose another price if your work is worth it.
              </p>
            </div>
            <div className="field">
              <label htmlFor={`${uid}-pitch`}>Pitch (optional)</label>
              <textarea
                id={`${uid}-pitch`}
                rows={3}
                maxLength={2000}
                value={pitch}
                onChange={(e) => setPitch(e.target.value)}
              />
            </div>
            <FormError message={priceError} />
            <button type="submit" className="button button-primary" disabled={applying}>
              {applying ? 'Applying...' : 'Apply to this deal'}
            </button>
          </form>
        </>
      )}
    </section>
  );
}

/** Withdraw, asked twice: the brand then no longer sees the application as waiting for an answer. */
function WithdrawApplication({ db, applicationId }: { db: PactaDatabase; applicationId: string }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  async function withdraw() {
    setBusy(true);
    try {
      await withdrawApplication(db, applicationId);
      toastSuccess('Application withdrawn.');
    } catch (error) {
      toastError(error instanceof DealActionError ? error.message : 'Failed to withdraw. Please try again.');
    } finally {
      setBusy(false);
      setAsking(false);
    }
  }
  if (!asking) {
    return (
      <p>
        <button type="button" className="button button-ghost" onClick={() => setAsking(true)}>
          Withdraw application
        </button>
      </p>
    );
  }
  return (
    <div className="callout" role="group" aria-label="Withdraw application">
      <p>Withdraw your application? The brand can no longer accept it, and you cannot apply to this deal again.</p>
      <div className="form-actions">
        <button type="button" className="button button-primary" disabled={busy} onClick={() => void withdraw()}>
          Yes, withdraw
        </button>
        <button type="button" className="button button-secondary" disabled={busy} onClick={() => setAsking(false)}>
          Keep it
        </button>
      </div>
    </div>
  );
}
