import './support.css';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAuth } from '../../lib/session/auth-context.ts';
import { useLocalData } from '../../db/hooks/use-database.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { PageLoading } from '../../components/page-loading.tsx';
import {
  FREE_OPEN_TICKET_LIMIT,
  SUBJECT_MAX_LENGTH,
  SUPPORT_ERRORS,
  validateTicketDraft,
  type TicketDraftErrors,
} from '../../domain/support.ts';
import { useMyDeals, useMyTickets } from './data/use-support-data.ts';
import { openTicket } from './data/support-operations.ts';
import { LocalDataError, SupportErrorPanel } from './support-error-panel.tsx';

/**
 * /support/new: Subject and Message (required), and optionally the deal it is about. The plan sets
 * the priority (Pro: high, otherwise normal; the server decides, this only predicts it).
 */
export function NewTicketPage() {
  const auth = useAuth();
  const local = useLocalData();
  const navigate = useNavigate();
  const userId = auth.user?.id ?? null;
  const isPro = auth.user?.isPro ?? false;
  const { tickets } = useMyTickets(userId);
  const deals = useMyDeals(userId);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [dealId, setDealId] = useState('');
  const [errors, setErrors] = useState<TicketDraftErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  if (local.status === 'error') return <LocalDataError message={local.error} onRetry={local.retry} />;
  if (!local.db || !userId) return <PageLoading label="Loading support..." />;
  const db = local.db;

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    const found = validateTicketDraft({ subject, message });
    setErrors(found);
    if (found.subject || found.message) return;
    // The server keeps the free plan's limit; predicting it here answers at once, also offline.
    const openQuestions = tickets.filter(
      (t) => t.kind === 'question' && t.status === 'open' && !t.sync_rejection,
    ).length;
    if (!isPro && openQuestions >= FREE_OPEN_TICKET_LIMIT) {
      setFailure(SUPPORT_ERRORS.openTicketLimit);
      return;
    }
    setSaving(true);
    setFailure(null);
    try {
      const priority = isPro ? 'high' : 'normal';
      const id = await openTicket(db, userId!, { subject, message, priority, dealId: dealId || null });
      await navigate(`/support/${id}`);
    } catch (err) {
      setFailure(err instanceof Error ? err.message : 'The ticket could not be saved.');
      setSaving(false);
    }
  }

  return (
    <div className="page container narrow support">
      <p>
        <Link to="/support">← Back to support</Link>
      </p>
      <PageHeader
        title="New Ticket"
        lead="Tell us what you need; we reply in this ticket. It is saved on this device at once, also offline."
      />
      {failure ? (
        <SupportErrorPanel title="The ticket was not created" message={failure} onRetry={() => void submit()} />
      ) : null}
      <form className="form card support-form" noValidate onSubmit={(e) => void submit(e)}>
        <div className="field">
          <label htmlFor="ticket-subject">
            Subject <span className="required">*</span>
          </label>
          <input
            id="ticket-subject"
            value={subject}
            maxLength={SUBJECT_MAX_LENGTH + 50}
            aria-invalid={errors.subject ? true : undefined}
            aria-describedby={errors.subject ? 'ticket-subject-error' : undefined}
            onChange={(e) => setSubject(e.target.value)}
          />
          {errors.subject ? (
            <p className="field-error" id="ticket-subject-error">
              {errors.subject}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="ticket-message">
            Message <span className="required">*</span>
          </label>
          <textarea
            id="ticket-message"
            value={message}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={errors.message ? 'ticket-message-error' : undefined}
            onChange={(e) => setMessage(e.target.value)}
          />
          {errors.message ? (
            <p className="field-error" id="ticket-message-error">
              {errors.message}
            </p>
          ) : null}
        </div>
        <p className="muted support-hint" data-testid="ticket-priority">
          {isPro
            ? 'Priority: high. Pro members’ tickets are answered first.'
            : 'Priority: normal. Pro members’ tickets are filed as high priority and answered first.'}
        </p>
        <div className="field">
          <label htmlFor="ticket-deal">About a deal (optional)</label>
          <select id="ticket-deal" value={dealId} onChange={(e) => setDealId(e.target.value)}>
            <option value="">No particular deal</option>
            {deals.map((d) => (
              <option key={d.id} value={d.id}>
                {d.title}
              </option>
            ))}
          </select>
        </div>
        <div className="support-actions">
          <button type="submit" className="button button-primary" disabled={saving}>
            Create Ticket
          </button>
          <Link to="/support" className="button button-secondary">
            Cancel
          </Link>
        </div>
      </form>
    </div>
  );
}
