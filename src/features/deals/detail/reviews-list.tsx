import type { ProfileDocument, ReviewDocument } from '../../../domain/collections/index.ts';
import { displayName } from '../data/use-deal-data.ts';

export function ReviewsList({
  reviews,
  profiles,
}: {
  reviews: readonly ReviewDocument[];
  profiles: ReadonlyMap<string, ProfileDocument>;
}) {
  return (
    <section className="card detail-section" aria-labelledby="reviews-heading">
      <h2 id="reviews-heading">Reviews</h2>
      {reviews.length === 0 ? (
        <p className="empty-state">No reviews yet.</p>
      ) : (
        <ul className="review-list">
          {reviews.map((r) => (
            <li key={r.id} className="review">
              <p className="review-head">
                <strong>{displayName(profiles.get(r.reviewer_id), 'Anonymous')}</strong>{' '}
                <span className="stars" role="img" aria-label={`${r.rating} out of 5 stars`}>
                  {'★'.repeat(r.rating)}
                  <span aria-hidden="true" className="stars-off">
                    {'★'.repeat(5 - r.rating)}
                  </span>
                </span>
              </p>
              {r.content ? <p>{r.content}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
