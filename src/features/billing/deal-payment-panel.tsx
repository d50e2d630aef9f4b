import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { FormError } from '../../components/form-error.tsx';
import { formatRate, formatUsd, parseUsdToCents, SERVICE_FEE_BP } from '../../domain/fees.ts';
import { formatDate } from './format.ts';
import { paymentStatus, releaseBlocker } from './payment-status.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { CHECKOUT_FAILED, moneyApi, type DealPayment, type EscrowStatus } from './data/money-api.ts';
import { PayoutSetup } from './payout-setup.tsx';
import { PaymentsUnavailable } from './payments-unavailable.tsx';
import { useOnline } from './use-online.ts';
import { usePaymentsAvailable } from './data/use-payments-available.ts';
import { useServerRedirect } from './data/use-server-redirect.ts';

/** What the replicated deal says, for when the server cannot be asked (offline). */
const OFFLINE_TEXT: Record<EscrowStatus, string> = {
  none: 'Not funded yet.',
  pending: 'Funded and held in escrow.',
  released: 'Payout released from escrow.',
  refunded: 'Refunded to the brand.',
  disputed: 'Disputed: the payout is on hold.',
};

const STATUS_BADGE: Record<EscrowStatus, string> = {
  none: 'Not funded',
  pending: 'Funded',
  released: 'Released',
  refunded: 'Refunded',
  disputed: 'Disputed',
};

/**
 * The deal's money for its brand, its creator and staff: the real escrow state and figures from the
 * server, and the actions each may take (Fund deal, Release Payout, Open dispute, resolve a dispute).
 * `escrowStatus`, `dealStatus` and `dealVersion` come from the synced deal: when a webhook or a sync
 * changes them, the panel asks the server again.
 */
export function DealPaymentPanel({
  dealId,
  escrowStatus,
  dealStatus,
  dealVersion,
  fundedPrices,
}: {
  dealId: string;
  escrowStatus: EscrowStatus;
  dealStatus: string;
  /**
   * The synced deal's server version: a change made on this page (Mark as Completed) reaches the
   * server after the local write, so the panel asks again when the server has stamped it.
   */
  dealVersion?: number | null | undefined;
  /**
   * Which accepted creators' prices are funded, as the synced applications say: a paid top-up changes
   * no deal field, so this is how the panel learns it (the creator it funded, and the brand).
   */
  fundedPrices?: string | undefined;
}) {
  const online = useOnline();
  const headingId = useId();
  const [params] = useSearchParams();
  const [view, setView] = useState<DealPayment | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  // Outlives the action that set it: a release reloads the panel, whose Release Payout then goes away.
  const [notice, setNotice] = useState<string | null>(null);
  const funding = params.get('funding');
  const payments = usePaymentsAvailable();

  useEffect(() => {
    if (!online || payments !== true) return;
    let current = true;
    moneyApi.dealPayment(dealId).then(
      (v) => {
        if (!current) return;
        setView(v);
        setLoadError(null);
      },
      (err: unknown) => current && setLoadError(err instanceof Error ? err.message : 'Failed to load the payment.'),
    );
    return () => {
      current = false;
    };
  }, [dealId, escrowStatus, dealStatus, dealVersion, fundedPrices, online, reload, payments]);

  // Back from Checkout: the webhook lands a moment after the redirect; ask again until it has.
  const waitingForFunding =
    funding === 'success' &&
    // A top-up's checkout stays open until its webhook lands (a later acceptance opens none).
    (view?.escrowStatus === 'none' || (view?.viewer === 'brand' && view.topUp !== null && view.checkoutOpen)) &&
    !view.lastPaymentError;
  useEffect(() => {
    if (!waitingForFunding) return;
    const timer = setInterval(() => setReload((n) => n + 1), 1_500);
    return () => clearInterval(timer);
  }, [waitingForFunding]);

  const refresh = useCallback(() => setReload((n) => n + 1), []);
  // A creator whose price waits for a top-up is not funded, whatever the escrow holds for the others.
  const badge: EscrowStatus = view?.viewer === 'creator' && view.topUp ? 'none' : (view?.escrowStatus ?? escrowStatus);

  return (
    <section
      id="payment"
      className="card detail-section payment-panel"
      aria-labelledby={headingId}
      data-testid="payment-panel"
    >
      <div className="payment-panel-head">
        <h2 id={headingId}>Payment summary</h2>
        <span className={`badge badge-escrow-${badge}`}>{STATUS_BADGE[badge]}</span>
      </div>
      {payments === false ? (
        <>
          <p>{OFFLINE_TEXT[escrowStatus]}</p>
          <PaymentsUnavailable />
        </>
      ) : !online ? (
        <>
          <p>{OFFLINE_TEXT[escrowStatus]}</p>
          <p className="muted">Payment details and actions need a connection.</p>
        </>
      ) : loadError ? (
        <p className="form-error" role="alert">
          {loadError}
        </p>
      ) : !view ? (
        <p className="muted">Loading payment…</p>
      ) : (
        <>
          {notice ? (
            <p className="form-success" role="status">
              {notice}
            </p>
          ) : null}
          <PaymentBody view={view} funding={funding} onChanged={refresh} onNotice={setNotice} />
        </>
      )}
    </section>
  );
}

function PaymentBody({
  view,
  funding,
  onChanged,
  onNotice,
}: {
  view: DealPayment;
  funding: string | null;
  onChanged: () => void;
  onNotice: (text: string) => void;
}) {
  const brand = view.viewer === 'brand';
  const creator = view.viewer === 'creator';
  return (
    <>
      <StatusLine view={view} funding={funding} />
      {view.checkoutOpen && (view.escrowStatus === 'none' || view.topUp) ? (
        <CheckoutOpen view={view} onChanged={onChanged} />
      ) : null}
      <Figures view={view} />
      {brand && view.canFund ? (
        view.topUp ? (
          <TopUpButton view={view} topUp={view.topUp} />
        ) : (
          <FundButton view={view} />
        )
      ) : null}
      {view.cancellation || view.canRequestCancel ? (
        <Cancellation view={view} onChanged={onChanged} onNotice={onNotice} />
      ) : null}
      {brand && view.escrowStatus === 'none' && !view.canFund && view.dealStatus !== 'cancelled' ? (
        <p className="muted">Accept a creator, then fund the deal.</p>
      ) : null}
      {creator && view.escrowStatus !== 'released' && view.escrowStatus !== 'refunded' ? (
        <PayoutSetup returnTo={`/deals/${view.dealId}`} />
      ) : null}
      {view.canRelease ? <ReleaseButton view={view} onChanged={onChanged} onNotice={onNotice} /> : null}
      {view.canDispute ? <DisputeForm view={view} onChanged={onChanged} onNotice={onNotice} /> : null}
      {view.canResolve ? <ResolveDispute view={view} onChanged={onChanged} onNotice={onNotice} /> : null}
      {view.viewer === 'admin' ? (
        <p>
          <Link to={`/admin/ledger?deal=${view.dealId}`}>Ledger of this deal</Link>
        </p>
      ) : null}
    </>
  );
}

function StatusLine({ view, funding }: { view: DealPayment; funding: string | null }) {
  const status = paymentStatus(view, funding);
  return (
    <>
      {status.tone === 'error' ? (
        <p className="form-error" role="alert">
          {status.headline}
        </p>
      ) : status.tone === 'waiting' ? (
        <p role="status" className="callout">
          {status.headline}
        </p>
      ) : (
        <p className="payment-state">{status.headline}</p>
      )}
      {status.details.map((line) => (
        <p key={line} className="muted">
          {line}
        </p>
      ))}
      {view.escrowStatus === 'disputed' && view.dispute?.reason ? (
        <blockquote className="dispute-reason">{view.dispute.reason}</blockquote>
      ) : null}
    </>
  );
}

function Figures({ view }: { view: DealPayment }) {
  const settled = view.escrowStatus === 'released' || view.transferredCents > 0;
  // Once funded, the figures are what was recorded for the escrow, never the deal's current amount.
  const charged = view.chargedCents > 0;
  return (
    <dl className="summary-list">
      <div>
        <dt>{charged ? 'Amount in escrow' : 'Deal amount'}</dt>
        <dd data-testid="escrow-amount">{formatUsd(view.amountCents)}</dd>
      </div>
      <div>
        <dt>Service fee ({formatRate(SERVICE_FEE_BP)})</dt>
        <dd>{formatUsd(view.serviceFeeCents)}</dd>
      </div>
      <div>
        <dt>{charged ? 'Charged to the brand' : 'Brand total'}</dt>
        <dd data-testid="brand-charged">{formatUsd(charged ? view.chargedCents : view.brandTotalCents)}</dd>
      </div>
      <div>
        <dt>Platform commission ({formatRate(view.commissionBp)})</dt>
        <dd>−{formatUsd(view.commissionCents)}</dd>
      </div>
      <div className="summary-total">
        <dt>{settled ? 'Paid to the creator' : 'Creator payout'}</dt>
        <dd data-testid="creator-payout">{formatUsd(view.creatorPayoutCents)}</dd>
      </div>
      {view.refundedCents > 0 ? (
        <div>
          <dt>Refunded to the brand</dt>
          <dd>{formatUsd(view.refundedCents)}</dd>
        </div>
      ) : null}
      {view.extraPaymentsRefundedCents > 0 ? (
        <div>
          <dt>Extra payments refunded</dt>
          <dd>{formatUsd(view.extraPaymentsRefundedCents)}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** "Once a checkout exists the amount is frozen": said to both sides, with the brand's way out. */
function CheckoutOpen({ view, onChanged }: { view: DealPayment; onChanged: () => void }) {
  const [state, setState] = useState<{ kind: 'idle' | 'busy' } | { kind: 'failed'; reason: string }>({ kind: 'idle' });
  async function cancel() {
    setState({ kind: 'busy' });
    try {
      await moneyApi.cancelCheckout(view.dealId);
      setState({ kind: 'idle' });
      onChanged();
    } catch (err) {
      setState({ kind: 'failed', reason: err instanceof Error ? err.message : 'Please try again.' });
    }
  }
  if (!view.canCancelCheckout) {
    return (
      <p className="callout" data-testid="amount-frozen">
        The brand has opened a checkout for {formatUsd(view.brandTotalCents)}: the amount is frozen until it is paid or
        cancelled.
      </p>
    );
  }
  return (
    <div className="callout money-action" data-testid="amount-frozen">
      <p>
        <strong>Amount frozen at {formatUsd(view.amountCents)}.</strong> A checkout for{' '}
        {formatUsd(view.brandTotalCents)} is open: the deal's amount cannot change until it is paid or cancelled.
      </p>
      <button
        type="button"
        className="button button-ghost"
        disabled={state.kind === 'busy'}
        onClick={() => void cancel()}
      >
        {state.kind === 'busy' ? 'Cancelling…' : 'Cancel checkout'}
      </button>
      {state.kind === 'failed' ? (
        <p className="form-error" role="alert">
          Failed to cancel the checkout: {state.reason}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A funded deal in progress is refunded only with the creator's consent (or a dispute decided by
 * staff): the brand asks, the creator agrees here, then the server cancels it and refunds the brand.
 */
function Cancellation({
  view,
  onChanged,
  onNotice,
}: {
  view: DealPayment;
  onChanged: () => void;
  onNotice: (text: string) => void;
}) {
  const [state, setState] = useState<{ kind: 'idle' | 'busy' } | { kind: 'failed'; reason: string }>({ kind: 'idle' });
  async function act(run: () => Promise<unknown>, done: string) {
    setState({ kind: 'busy' });
    try {
      await run();
      setState({ kind: 'idle' });
      onNotice(done);
      onChanged();
    } catch (err) {
      setState({ kind: 'failed', reason: err instanceof Error ? err.message : 'Please try again.' });
    }
  }
  const busy = state.kind === 'busy';
  const failure =
    state.kind === 'failed' ? (
      <p className="form-error" role="alert">
        {state.reason}
      </p>
    ) : null;
  if (view.canRequestCancel) {
    return (
      <div className="money-action">
        <button
          type="button"
          className="button button-ghost"
          disabled={busy}
          onClick={() =>
            void act(
              () => moneyApi.requestCancellation(view.dealId),
              'Cancellation requested: the creator is asked to agree.',
            )
          }
        >
          {busy ? 'Asking…' : 'Ask to cancel and refund'}
        </button>
        <p className="muted">
          A creator is working on this funded deal: it is refunded once they agree, or Pacta staff decide a dispute.
        </p>
        {failure}
      </div>
    );
  }
  const since = view.cancellation ? formatDate(view.cancellation.requestedAt) : '';
  if (view.canConsentCancel) {
    return (
      <div className="callout money-action" data-testid="cancellation">
        <p>
          <strong>The brand asks to cancel this deal</strong> (since {since}) and get its payment back.
        </p>
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={() =>
            void act(() => moneyApi.consentToCancellation(view.dealId), 'You agreed to cancel: the brand is refunded.')
          }
        >
          {busy ? 'Agreeing…' : 'Agree to cancel'}
        </button>
        <p className="muted">If work is owed to you, do not agree: open a dispute instead.</p>
        {failure}
      </div>
    );
  }
  return (
    <p className="callout" data-testid="cancellation">
      {view.viewer === 'creator'
        ? 'You agreed to cancel: waiting for the other creators on this deal.'
        : `Cancellation asked on ${since}: waiting for the creator's consent. The payment stays in escrow until then.`}
    </p>
  );
}

function FundButton({ view }: { view: DealPayment }) {
  const checkout = useServerRedirect(CHECKOUT_FAILED);
  return (
    <div className="money-action">
      <button
        type="button"
        className="button button-primary"
        disabled={checkout.pending}
        onClick={() => void checkout.go(() => moneyApi.fundDeal(view.dealId))}
      >
        {checkout.pending ? 'Processing…' : `Fund deal (${formatUsd(view.brandTotalCents)})`}
      </button>
      <p className="muted">The money is held in escrow and released to the creator when the deal is completed.</p>
      <FormError message={checkout.error ? CHECKOUT_FAILED : null} />
    </div>
  );
}

/**
 * A creator accepted after the deal was funded: their agreed price is funded by a top-up, a payment of
 * its own (that price plus the service fee), before they start the work.
 */
function TopUpButton({ view, topUp }: { view: DealPayment; topUp: NonNullable<DealPayment['topUp']> }) {
  const checkout = useServerRedirect(CHECKOUT_FAILED);
  const [only] = topUp.creators;
  const label =
    topUp.creators.length === 1 && only
      ? `Fund ${only.name}'s ${formatUsd(only.priceCents)}`
      : `Fund ${topUp.creators.length} creators' prices (${formatUsd(topUp.amountCents)})`;
  // A creator without a name is "the creator" (from the server), capitalised to start the sentence.
  const listed = topUp.creators.map((c) => c.name).join(', ');
  const names = listed.charAt(0).toUpperCase() + listed.slice(1);
  const who =
    topUp.creators.length === 1
      ? `${names} joined after the deal was funded: their price is not in escrow yet, and they start the work once it is.`
      : `${names} joined after the deal was funded: their prices are not in escrow yet, and they start the work once they are.`;
  return (
    <div className="callout money-action" data-testid="top-up">
      <p>{who}</p>
      <button
        type="button"
        className="button button-primary"
        disabled={checkout.pending}
        onClick={() => void checkout.go(() => moneyApi.fundDeal(view.dealId))}
      >
        {checkout.pending ? 'Processing…' : label}
      </button>
      <p className="muted">
        You pay {formatUsd(topUp.totalCents)}: {formatUsd(topUp.amountCents)} plus the {formatRate(SERVICE_FEE_BP)}{' '}
        service fee ({formatUsd(topUp.serviceFeeCents)}), held in escrow until the deal is completed.
      </p>
      <FormError message={checkout.error ? CHECKOUT_FAILED : null} />
    </div>
  );
}

function ReleaseButton({
  view,
  onChanged,
  onNotice,
}: {
  view: DealPayment;
  onChanged: () => void;
  onNotice: (text: string) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const blocker = releaseBlocker(view);
  async function release() {
    setFailure(null);
    try {
      await moneyApi.releaseEscrow(view.dealId);
      setConfirming(false);
      onNotice('Payout released to creator!');
      onChanged();
    } catch (err) {
      setConfirming(false);
      setFailure(err instanceof Error ? err.message : 'Please try again.');
    }
  }
  return (
    <div className="money-action">
      <button
        type="button"
        className="button button-primary"
        disabled={blocker !== null}
        aria-describedby={blocker ? `${view.dealId}-release-blocker` : undefined}
        onClick={() => setConfirming(true)}
      >
        Release payout now
      </button>
      {blocker ? (
        <p className="muted" id={`${view.dealId}-release-blocker`}>
          {blocker}
        </p>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title="Release the payout now?"
          confirmLabel="Release payout now"
          busyLabel="Releasing…"
          onConfirm={release}
          onCancel={() => setConfirming(false)}
        >
          <p>
            {formatUsd(view.creatorPayoutCents)} will move from escrow to the creator's payout account (
            {formatUsd(view.amountCents)} less the {formatRate(view.commissionBp)} commission). This cannot be undone,
            and no dispute can be opened afterwards.
          </p>
        </ConfirmDialog>
      ) : null}
      {failure ? (
        <p className="form-error" role="alert">
          Failed to release payout: {failure}
        </p>
      ) : null}
    </div>
  );
}

function DisputeForm({
  view,
  onChanged,
  onNotice,
}: {
  view: DealPayment;
  onChanged: () => void;
  onNotice: (text: string) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await moneyApi.openDispute(view.dealId, reason);
      setOpen(false);
      onNotice('Dispute opened. Pacta staff will look at both sides; both of you are notified.');
      onChanged();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Failed to open the dispute.');
    } finally {
      setBusy(false);
    }
  }
  if (!open) {
    return (
      <div className="money-action">
        <button type="button" className="button button-ghost" onClick={() => setOpen(true)}>
          Open dispute
        </button>
        {view.disputeWindowEndsAt ? (
          <p className="muted">Possible until {formatDate(view.disputeWindowEndsAt)}.</p>
        ) : null}
      </div>
    );
  }
  return (
    <form className="form money-action" onSubmit={(e) => void submit(e)}>
      <div className="field">
        <label htmlFor={id}>What went wrong?</label>
        <textarea
          id={id}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          minLength={10}
          maxLength={2000}
          required
        />
      </div>
      <p className="muted">The payout is frozen while Pacta staff look at both sides.</p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Opening…' : 'Open dispute'}
        </button>
        <button type="button" className="button button-ghost" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function ResolveDispute({
  view,
  onChanged,
  onNotice,
}: {
  view: DealPayment;
  onChanged: () => void;
  onNotice: (text: string) => void;
}) {
  const id = useId();
  const [refund, setRefund] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  function review(event: FormEvent) {
    event.preventDefault();
    const cents = parseUsdToCents(refund);
    if (cents === undefined || cents > view.amountCents) {
      setMessage({ ok: false, text: `Enter a refund between $0 and ${formatUsd(view.amountCents)}.` });
      return;
    }
    setMessage(null);
    setConfirming(cents);
  }
  async function resolve(cents: number) {
    try {
      const result = await moneyApi.resolveDispute(view.dealId, cents);
      setMessage(null);
      onNotice(
        `Dispute resolved: ${formatUsd(result.refundedCents)} refunded to the brand, ${formatUsd(result.transferCents)} paid to the creator.`,
      );
      onChanged();
    } catch (err) {
      setMessage({
        ok: false,
        text: `Failed to resolve the dispute: ${err instanceof Error ? err.message : 'please try again.'}`,
      });
    } finally {
      setConfirming(null);
    }
  }
  return (
    <form className="form money-action dispute-resolution" onSubmit={review} aria-label="Resolve dispute">
      <h3>Resolve the dispute</h3>
      <div className="field">
        <label htmlFor={id}>Refund to the brand ($ of {formatUsd(view.amountCents)})</label>
        <input
          id={id}
          type="text"
          inputMode="decimal"
          value={refund}
          onChange={(e) => setRefund(e.target.value)}
          required
        />
      </div>
      <p className="muted">
        The rest is released to the creator minus commission. The brand gets the matching share of the service fee back.
      </p>
      <div className="form-actions">
        <button type="button" className="button button-ghost" onClick={() => setRefund(String(view.amountCents / 100))}>
          Refund in full
        </button>
        <button type="button" className="button button-ghost" onClick={() => setRefund('0')}>
          Release in full
        </button>
        <button type="submit" className="button button-primary">
          Resolve dispute
        </button>
      </div>
      {confirming !== null ? (
        <ConfirmDialog
          title="Resolve the dispute?"
          confirmLabel="Resolve dispute"
          busyLabel="Resolving…"
          onConfirm={() => resolve(confirming)}
          onCancel={() => setConfirming(null)}
        >
          <p>
            {formatUsd(confirming)} will be refunded to the brand, with the matching share of the service fee.{' '}
            {formatUsd(view.amountCents - confirming)} will be released to the creator, less the commission. Both sides
            are notified; this cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
      {message ? (
        <p className={message.ok ? 'form-success' : 'form-error'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </p>
      ) : null}
    </form>
  );
}
