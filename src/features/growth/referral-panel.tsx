import { useEffect, useRef, useState } from 'react';
import './growth-cards.css';
import { formatUsd } from '../../domain/fees.ts';
import { MESSAGES } from '../../lib/errors.ts';
import { useReferralStats } from './data/use-referral-stats.ts';

export const COPIED_MS = 2_000;

export function referralLink(origin: string, code: string): string {
  return `${origin}/signup?ref=${encodeURIComponent(code)}`;
}

/** Referral panel: link, Copy Link → 'Copied!' for 2 s, counts, how it works. */
export function ReferralPanel({
  userId,
  code,
  everyone = false,
  onRetry,
}: {
  userId: string;
  code: string | null;
  everyone?: boolean;
  onRetry(): void;
}) {
  const stats = useReferralStats(userId, { everyone });
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const link = code ? referralLink(window.location.origin, code) : null;

  async function copy() {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // Clipboard blocked: select the text so the user can copy it by hand.
      (document.getElementById('referral-link') as HTMLInputElement | null)?.select();
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  }

  return (
    <section className="card referral-panel" aria-labelledby="referral-title">
      <h2 id="referral-title">Refer and earn</h2>
      {link ? (
        <div className="input-row">
          <label className="visually-hidden" htmlFor="referral-link">
            Your referral link
          </label>
          <input id="referral-link" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className="button button-primary button-small" onClick={() => void copy()}>
            {copied ? 'Copied!' : 'Copy Link'}
          </button>
        </div>
      ) : (
        <p className="muted">Your referral link appears as soon as your profile has synced.</p>
      )}
      {stats.error ? (
        <div className="inline-error" role="alert">
          <p>{MESSAGES.referralLoadFailed}</p>
          <button type="button" className="button button-secondary button-small" onClick={onRetry}>
            Retry
          </button>
        </div>
      ) : (
        <dl className="mini-stats">
          <div>
            <dt>Total referrals</dt>
            <dd>{stats.data?.total ?? '–'}</dd>
          </div>
          <div>
            <dt>Active referrals</dt>
            <dd>{stats.data?.active ?? '–'}</dd>
          </div>
          <div>
            <dt>Total earnings</dt>
            <dd>{stats.data ? formatUsd(stats.data.earningsCents) : '–'}</dd>
          </div>
        </dl>
      )}
      <h3>How it works</h3>
      <ol className="how-it-works">
        <li>Share your link with creators and brands.</li>
        <li>$10 per new Pro subscription.</li>
        <li>5% of referred deal earnings for 3 months.</li>
        <li>Monthly payouts.</li>
      </ol>
    </section>
  );
}
