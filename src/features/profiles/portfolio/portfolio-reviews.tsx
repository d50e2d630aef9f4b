import { Stars } from '../../../components/stars.tsx';
import type { ProfileDocument, ReviewDocument } from '../../../domain/collections/index.ts';

/** What others said about the user: published reviews, newest first. */
export function PortfolioReviews({
  reviews,
  reviewers,
  failed,
}: {
  reviews: readonly ReviewDocument[];
  reviewers: ReadonlyMap<string, ProfileDocument>;
  failed: boolean;
}) {
  return (
    <section className="card portfolio-section" aria-labelledby="portfolio-reviews">
      <h2 id="portfolio-reviews">Reviews</h2>
      {failed ? (
        <p className="form-error" role="alert">
          Failed to load reviews.
        </p>
      ) : reviews.length === 0 ? (
        <p className="empty-state">No reviews yet.</p>
      ) : (
        <ul className="review-list">
          {reviews.map((r) => (
            <li key={r.id} className="review" data-testid="portfolio-review">
              <p className="review-head">
                <strong>{reviewers.get(r.reviewer_id)?.full_name?.trim() || 'A Pacta member'}</strong>{' '}
                <Stars rating={r.rating} />
              </p>
              {r.content ? <p className="prose-text">{r.content}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
