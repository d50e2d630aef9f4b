import '../deals.css';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { SaveToggle } from '../../profiles/index.ts';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { useDatabase } from '../../../db/hooks/use-database.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { formatUsd } from '../../../domain/fees.ts';
import { displayName } from '../data/use-deal-data.ts';
import { useSwipeGesture } from './use-swipe-gesture.ts';
import { useSwipeStack } from './use-swipe-stack.ts';
import { ChipList } from '../../../components/chip-list.tsx';
import { Avatar } from '../../../components/avatar.tsx';
import { endSentence } from '../../../domain/end-sentence.ts';

/** /swipe: one open deal at a time; Skip (←, swipe left) or Apply (→, swipe right). Works offline. */
export function SwipePage() {
  const auth = useAuth();
  const db = useDatabase();
  const stack = useSwipeStack(db, auth.user, auth.isAdmin);
  // What the last action did, for the live region ("Applied to …", "Skipped …").
  const [lastAction, setLastAction] = useState('');
  const act = (kind: 'apply' | 'skip') => {
    const current = stack.current;
    if (!current) return;
    setLastAction(endSentence(kind === 'apply' ? `Applied to ${current.title}` : `Skipped ${current.title}`));
    if (kind === 'apply') stack.apply();
    else stack.skip();
  };
  const { dx, handlers } = useSwipeGesture((direction) => act(direction === 'right' ? 'apply' : 'skip'));
  const actRef = useRef(act);
  actRef.current = act;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target as HTMLElement | null;
      if (target && target.closest('input, textarea, select, [contenteditable="true"]')) return;
      if (event.key === 'ArrowLeft') {
        event.preventDefault();
        actRef.current('skip');
      } else if (event.key === 'ArrowRight') {
        event.preventDefault();
        actRef.current('apply');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const deal = stack.current;
  const brand = deal ? displayName(stack.profiles.get(deal.brand_id), 'A brand') : '';
  const tags = deal
    ? deal.deliverables.length
      ? deal.deliverables
      : deal.platforms.length
        ? deal.platforms
        : deal.niches
    : [];
  const tilt = Math.max(-12, Math.min(12, dx / 12));

  return (
    <div className="page container swipe-page">
      <PageHeader title="Swipe deals" lead="Apply with → or a swipe right, skip with ← or a swipe left." />
      <div className="swipe-area">
        {stack.loading && !deal ? (
          <p className="card swipe-empty" role="status">
            Loading deals...
          </p>
        ) : stack.error ? (
          <p className="card swipe-empty form-error" role="alert">
            Failed to load deals
          </p>
        ) : !deal ? (
          <div className="card swipe-empty" role="status">
            <h2>No more deals!</h2>
            <p className="muted">Check back later for new opportunities.</p>
            <Link to="/deals" className="button button-secondary">
              Browse all deals
            </Link>
          </div>
        ) : (
          <>
            <article
              key={deal.id}
              className="card swipe-card"
              aria-labelledby="swipe-card-title"
              style={{
                transform: dx ? `translateX(${dx}px) rotate(${tilt}deg)` : undefined,
                transition: dx ? 'none' : undefined,
              }}
              data-intent={dx > 40 ? 'apply' : dx < -40 ? 'skip' : undefined}
              {...handlers}
            >
              <p className="swipe-card-brand muted">
                <Avatar name={brand} url={stack.profiles.get(deal.brand_id)?.avatar_url} size={28} square />
                {brand}
              </p>
              <h2 id="swipe-card-title" className="swipe-card-title">
                {deal.title}
              </h2>
              <p className="swipe-card-amount">{formatUsd(deal.amount_cents)}</p>
              {deal.pro_only ? <span className="badge badge-pro">Pro</span> : null}
              <p className="swipe-card-description">{deal.description}</p>
              <ChipList label="Deliverables" items={tags} />
              <Link to={`/deals/${deal.id}`} className="swipe-card-details">
                View details
              </Link>
              <SaveToggle kind="saved_campaigns" entry={deal.id} name={deal.title} />
            </article>
            <div className="swipe-actions">
              <button
                type="button"
                className="button button-secondary swipe-skip"
                onClick={() => act('skip')}
                aria-keyshortcuts="ArrowLeft"
              >
                <span aria-hidden="true">←</span> Skip
              </button>
              <button
                type="button"
                className="button button-primary swipe-apply"
                onClick={() => act('apply')}
                aria-keyshortcuts="ArrowRight"
              >
                Apply <span aria-hidden="true">→</span>
              </button>
            </div>
          </>
        )}
        <p className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="swipe-announcer">
          {lastAction ? `${lastAction} ` : ''}
          {deal
            ? `Now showing: ${deal.title} by ${brand}, ${formatUsd(deal.amount_cents)}.`
            : stack.loading
              ? ''
              : 'No more deals!'}
        </p>
      </div>
    </div>
  );
}
