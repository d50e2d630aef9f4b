/** A rating out of 5 as stars (rounded to whole stars); read out as "4.5 out of 5 stars". */
export function Stars({ rating }: { rating: number }) {
  const whole = Math.round(rating);
  return (
    <span className="stars" role="img" aria-label={`${rating} out of 5 stars`}>
      {'★'.repeat(whole)}
      <span aria-hidden="true" className="stars-off">
        {'★'.repeat(5 - whole)}
      </span>
    </span>
  );
}
