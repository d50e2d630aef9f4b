/** Why the server refused a write made on this device (sync_rejection), in the user's words. */
export function RejectionNotice({ what, message }: { what: 'application' | 'change'; message: string }) {
  return (
    <p className="callout callout-warning rejection-notice" role="status">
      {what === 'application' ? 'This application did not go through: ' : 'This change did not go through: '}
      {message}
    </p>
  );
}
