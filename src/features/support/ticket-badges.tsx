import type {
  SupportTicketDocument,
  TicketKind,
  TicketPriority,
  TicketStatus,
} from '../../domain/collections/index.ts';

export const STATUS_TEXT: Record<TicketStatus, string> = { open: 'Open', closed: 'Closed' };
export const PRIORITY_TEXT: Record<TicketPriority, string> = {
  high: 'High priority',
  normal: 'Normal priority',
  low: 'Low priority',
};
export const KIND_TEXT: Record<TicketKind, string> = {
  question: 'Question',
  dispute: 'Dispute',
  contact: 'Contact form',
  report: 'Report',
};

/** A document written on this device that the server has not stamped yet. */
export function isWaitingToSync(doc: { version?: number | undefined }): boolean {
  return doc.version === undefined || doc.version === null;
}

/** Status, priority, Pro, kind (when not a plain question) and sync state of a ticket. */
export function TicketBadges({ ticket, showKind = true }: { ticket: SupportTicketDocument; showKind?: boolean }) {
  return (
    <span className="ticket-badges">
      <span className={`ticket-badge ticket-status-${ticket.status}`}>{STATUS_TEXT[ticket.status]}</span>
      <span className={`ticket-badge ticket-priority-${ticket.priority}`}>{PRIORITY_TEXT[ticket.priority]}</span>
      {ticket.is_pro ? <span className="ticket-badge ticket-pro">Pro</span> : null}
      {showKind && ticket.kind !== 'question' ? (
        <span className="ticket-badge ticket-kind">{KIND_TEXT[ticket.kind]}</span>
      ) : null}
      {ticket.sync_rejection ? (
        <span className="ticket-badge ticket-refused">Not sent</span>
      ) : isWaitingToSync(ticket) ? (
        <span className="ticket-badge ticket-pending">Waiting to sync</span>
      ) : null}
    </span>
  );
}
