/** Said instead of a money action when the server runs without payments (PAYMENTS=off). */
export function PaymentsUnavailable() {
  return (
    <p className="muted" role="status" data-testid="payments-unavailable">
      Payments are unavailable right now.
    </p>
  );
}
