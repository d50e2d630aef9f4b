import { useId, useState, type FormEvent } from 'react';
import type { PactaDatabase } from '../../../db/index.ts';
import type { DealDocument, ProfileDocument, ReviewDocument } from '../../../domain/collections/index.ts';
import { toastError, toastSuccess } from '../../../lib/toasts.ts';
import {
  isPublished,
  MAX_REVIEW_LENGTH,
  ReviewError,
  revieweesFor,
  reviewWindowClosesAt,
  writeReview,
} from '../data/review-operations.ts';
import { displayName, isWaitingToSync } from '../data/use-deal-data.ts';
import { Stars } from '../../../components/stars.tsx';
import { RejectionNotice } from './rejection-notice.tsx';

const dateText = (ms: number) =>
  new Date(ms).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

/**
 * The parties of a completed deal review each other: once, within 14 days, 1 to 5 stars and up to
 * 2,000 characters. Blind: a review shows to others only when both have written or the window closed.
 */
export function DealReviewsSection({
  db,
  deal,
  userId,
  reviews,
  profiles,
}: {
  db: PactaDatabase;
  deal: DealDocument;
  userId: string;
  reviews: readonly ReviewDocument[];
  profiles: ReadonlyMap<string, ProfileDocument>;
}) {
  const reviewees = revieweesFor(deal, userId);
  if (reviewees.length === 0) return null;
  const closesAt = reviewWindowClosesAt(deal);
  return (
    <section className="card detail-section deal-reviews" aria-labelledby="leave-review-heading">
      <h2 id="leave-review-heading">Review this deal</h2>
      {reviewees.map((revieweeId) => {
        const mine = reviews.find((r) => r.reviewer_id === userId && r.reviewee_id === revieweeId);
        const name = displayName(profiles.get(revieweeId), revieweeId === deal.brand_id ? 'the brand' : 'the creator');
        return mine ? (
          <OwnReview key={revieweeId} review={mine} name={name} closesAt={closesAt} />
        ) : closesAt !== null && Date.now() > closesAt ? (
          <p key={revieweeId} className="muted">
            The 14-day review window for this deal has closed.
          </p>
        ) : (
          <ReviewForm
            key={revieweeId}
            db={db}
            dealId={deal.id}
            reviewerId={userId}
            revieweeId={revieweeId}
            name={name}
            closesAt={closesAt}
          />
        );
      })}
    </section>
  );
}

function OwnReview({ review, name, closesAt }: { review: ReviewDocument; name: string; closesAt: number | null }) {
  const now = Date.now();
  const visible = isPublished(review, now);
  return (
    <div className="own-review" data-testid="own-review">
      <p className="review-head">
        <span>You reviewed {name}:</span> <Stars rating={review.rating} />
      </p>
      {review.content ? <p className="prose-text">{review.content}</p> : null}
      {review.sync_rejection ? (
        <RejectionNotice what="change" message={review.sync_rejection.message} />
      ) : isWaitingToSync(review) ? (
        <p className="muted">
          <span className="badge badge-pending">Waiting to sync</span>
        </p>
      ) : visible ? (
        <p className="muted" data-testid="review-visibility">
          Published: both reviews are visible.
        </p>
      ) : (
        <p className="muted" data-testid="review-visibility">
          Only you can see it until {name} has reviewed you too
          {closesAt !== null ? `, or until the review window closes on ${dateText(closesAt)}` : ''}.
        </p>
      )}
    </div>
  );
}

function ReviewForm({
  db,
  dealId,
  reviewerId,
  revieweeId,
  name,
  closesAt,
}: {
  db: PactaDatabase;
  dealId: string;
  reviewerId: string;
  revieweeId: string;
  name: string;
  closesAt: number | null;
}) {
  const uid = useId();
  const [rating, setRating] = useState(0);
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (rating < 1) {
      setError('Choose a rating from 1 to 5 stars.');
      return;
    }
    setSaving(true);
    try {
      await writeReview(db, { dealId, reviewerId, revieweeId, rating, content });
      toastSuccess('Review submitted!');
    } catch (err) {
      if (err instanceof ReviewError) setError(err.message);
      else {
        console.warn('review failed', err);
        toastError('Your review could not be saved. Please try again.');
      }
      setSaving(false);
    }
  }

  return (
    <form className="form review-form" noValidate onSubmit={(e) => void onSubmit(e)} aria-label={`Review ${name}`}>
      <p className="muted">
        How was working with {name}? Your review stays hidden until they have reviewed you too
        {closesAt !== null ? ` or the window closes on ${dateText(closesAt)}` : ''}, so neither of you sees the other's
        first.
      </p>
      <fieldset className="star-input" aria-describedby={error ? `${uid}-error` : undefined}>
        <legend>Rating</legend>
        <div className="star-row">
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n} className={n <= rating ? 'on' : undefined}>
              <input
                type="radio"
                name={`${uid}-rating`}
                value={n}
                checked={rating === n}
                onChange={() => {
                  setRating(n);
                  setError(null);
                }}
              />
              <span aria-hidden="true">★</span>
              <span className="visually-hidden">
                {n} {n === 1 ? 'star' : 'stars'}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="field">
        <label htmlFor={`${uid}-content`}>Your review</label>
        <textarea
          id={`${uid}-content`}
          maxLength={MAX_REVIEW_LENGTH}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          aria-describedby={`${uid}-count`}
        />
        <p className="field-hint muted" id={`${uid}-count`}>
          {content.length} / 2,000 characters
        </p>
      </div>
      {error ? (
        <p className="field-error" id={`${uid}-error`} role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="button button-primary" disabled={saving}>
        {saving ? 'Submitting...' : 'Submit Review'}
      </button>
    </form>
  );
}
