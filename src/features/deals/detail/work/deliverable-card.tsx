import { useId, useState, type FormEvent } from 'react';
import type { PactaDatabase } from '../../../../db/index.ts';
import type {
  ApplicationDocument,
  DealDocument,
  DealEventDocument,
  OfferParty,
} from '../../../../domain/collections/index.ts';
import { DELIVERABLE_STATUS_TEXT, draftBlockedText } from '../../../../domain/deal-work.ts';
import { isUnsynced, type DeliverableView } from '../../../../domain/deal-work-view.ts';
import { dueDayText, instantDateText } from '../../../../domain/work-dates.ts';
import { FormError } from '../../../../components/form-error.tsx';
import { useUploads } from '../../../../db/hooks/use-uploads.ts';
import { BUCKETS } from '../../../../domain/files.ts';
import { formatBytes } from '../../../../domain/media.ts';
import {
  agreeToExtraRound,
  approveDraft,
  confirmLive,
  DRAFT_MAX_FILES,
  draftFileProblem,
  parseLinks,
  requestChanges,
  submitDraft,
  submitDraftWithFiles,
  submitLiveLink,
} from '../../data/deal-work-operations.ts';
import { DraftFiles, PendingDraft } from './draft-files.tsx';
import { useWorkAction } from './use-work-action.ts';

/** Only web links become links (the server refuses others; this holds even if one got through). */
const isWebLink = (url: string) => /^https?:\/\//i.test(url);

/** A link the other side submitted, opened outside Pacta without passing on who looked. */
function OutsideLink({ url }: { url: string }) {
  return isWebLink(url) ? (
    <a href={url} target="_blank" rel="noopener noreferrer nofollow">
      {url}
    </a>
  ) : (
    <>{url}</>
  );
}

function Links({ links }: { links: readonly string[] }) {
  if (!links.length) return null;
  return (
    <ul className="work-links">
      {links.map((l) => (
        <li key={l}>
          <OutsideLink url={l} />
        </li>
      ))}
    </ul>
  );
}

function Submission({ label, event }: { label: string; event: DealEventDocument }) {
  return (
    <div className="work-submission">
      <p className="muted">
        {label}
        {isUnsynced(event) ? <span className="badge badge-pending">Waiting to sync</span> : null}
      </p>
      {event.note ? <blockquote className="work-note">{event.note}</blockquote> : null}
      <Links links={event.links} />
      <DraftFiles paths={event.files} />
    </div>
  );
}

/**
 * One deliverable of the agreed terms: its status in the words both sides see, and the step that is
 * the viewer's — the creator's 'Submit draft' (a note, files and links) and 'Submit live link', the brand's
 * 'Approve' and 'Request changes' (with comments, one round each) and confirming the live link.
 * 'Submit draft' waits for the escrow to be funded, as the server's rule does, and says so.
 */
export function DeliverableCard({
  db,
  app,
  item,
  me,
  myParty,
  escrowStatus,
}: {
  db: PactaDatabase;
  app: ApplicationDocument;
  item: DeliverableView;
  me: string;
  myParty: OfferParty;
  escrowStatus: DealDocument['escrow_status'];
}) {
  const uid = useId();
  const action = useWorkAction();
  const [note, setNote] = useState('');
  const [links, setLinks] = useState('');
  const [comments, setComments] = useState('');
  const [live, setLive] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const creator = myParty === 'creator';
  const roundsLeft = item.roundsIncluded - item.roundsUsed;
  const draftBlocked = draftBlockedText(escrowStatus, app.price_funded_at);
  const uploads = useUploads(creator ? me : null);
  const pending = uploads.filter(
    (j) => j.target.kind === 'draft' && j.target.applicationId === app.id && j.target.deliverableId === item.id,
  );
  // The creator's next step is a draft (none on its way from this device): the form, or why not yet.
  const draftDue =
    creator && pending.length === 0 && (item.status === 'not_started' || item.status === 'changes_requested');

  function pick(picked: readonly File[]) {
    const problem = picked.map(draftFileProblem).find(Boolean) ?? null;
    const next = [...files, ...picked.filter((f) => !draftFileProblem(f))].slice(0, DRAFT_MAX_FILES);
    setFiles(next);
    setFileError(
      problem ??
        (files.length + picked.length > DRAFT_MAX_FILES ? `A draft can carry at most ${DRAFT_MAX_FILES} files.` : null),
    );
  }

  async function onDraft(event: FormEvent) {
    event.preventDefault();
    const ok = await action.run(async () => {
      const draft = { deliverableId: item.id, note, links: parseLinks(links) };
      if (files.length > 0) await submitDraftWithFiles(app, me, { ...draft, files });
      else await submitDraft(db, app, me, draft);
    });
    if (ok) {
      setNote('');
      setLinks('');
      setFiles([]);
      setFileError(null);
    }
  }
  async function onChanges(event: FormEvent) {
    event.preventDefault();
    if (item.draft && (await action.run(() => requestChanges(db, app, me, item.draft!, comments)))) setComments('');
  }
  async function onLive(event: FormEvent) {
    event.preventDefault();
    if (await action.run(() => submitLiveLink(db, app, me, item.id, live))) setLive('');
  }

  return (
    <li className="deliverable" data-testid="deliverable" aria-labelledby={`${uid}-title`}>
      <div className="deliverable-head">
        <h4 id={`${uid}-title`}>{item.title}</h4>
        <span className={`badge badge-work-${item.status}`} data-testid="deliverable-status">
          {DELIVERABLE_STATUS_TEXT[item.status]}
        </span>
      </div>
      <p className="muted">
        Due {dueDayText(item.dueDate)} · Revision rounds: {item.roundsUsed} of {item.roundsIncluded} used
      </p>

      {item.status === 'changes_requested' && item.changes ? (
        <Submission label="Changes requested:" event={item.changes} />
      ) : null}
      {item.draft && item.status !== 'not_started' ? (
        <Submission
          label={item.status === 'draft_submitted' ? 'Draft to review:' : 'Latest draft:'}
          event={item.draft}
        />
      ) : null}

      {pending.length > 0 ? <PendingDraft jobs={pending} /> : null}

      {draftDue && draftBlocked ? (
        <p className="muted" data-testid="draft-blocked">
          {draftBlocked}
        </p>
      ) : null}
      {draftDue && !draftBlocked ? (
        <form className="form work-form" onSubmit={(e) => void onDraft(e)} aria-label={`Submit draft: ${item.title}`}>
          <div className="field">
            <label htmlFor={`${uid}-files`}>Files</label>
            <input
              id={`${uid}-files`}
              type="file"
              multiple
              accept={BUCKETS.deliverables.allowedTypes.join(',')}
              aria-describedby={`${uid}-files-hint`}
              onChange={(e) => {
                pick(Array.from(e.target.files ?? []));
                e.target.value = '';
              }}
            />
            <p className="field-hint muted" id={`${uid}-files-hint`}>
              Images, videos or PDF files, up to {formatBytes(BUCKETS.deliverables.maxBytes)} each. Picked offline, they
              upload when you are back online.
            </p>
            {files.length > 0 ? (
              <ul className="work-picked" aria-label="Files to send">
                {files.map((f, i) => (
                  <li key={`${f.name}-${i}`}>
                    <span>
                      {f.name} <span className="muted">{formatBytes(f.size)}</span>
                    </span>
                    <button
                      type="button"
                      className="button button-ghost button-small"
                      aria-label={`Remove ${f.name}`}
                      onClick={() => setFiles(files.filter((_, j) => j !== i))}
                    >
                      Remove
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
            <FormError message={fileError} />
          </div>
          <div className="field">
            <label htmlFor={`${uid}-links`}>Links to the draft</label>
            <textarea
              id={`${uid}-links`}
              rows={2}
              value={links}
              onChange={(e) => setLinks(e.target.value)}
              aria-describedby={`${uid}-links-hint`}
            />
            <p className="field-hint muted" id={`${uid}-links-hint`}>
              One a line, e.g. a private video link.
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${uid}-note`}>Note (optional)</label>
            <textarea id={`${uid}-note`} rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
          </div>
          <button type="submit" className="button button-primary button-small" disabled={action.busy}>
            Submit draft
          </button>
        </form>
      ) : null}

      {!creator && item.status === 'draft_submitted' && item.draft ? (
        <div className="work-review">
          <button
            type="button"
            className="button button-primary button-small"
            disabled={action.busy}
            onClick={() => void action.run(() => approveDraft(db, app, me, item.draft!))}
          >
            Approve
          </button>
          <form
            className="form work-form"
            onSubmit={(e) => void onChanges(e)}
            aria-label={`Request changes: ${item.title}`}
          >
            <div className="field">
              <label htmlFor={`${uid}-comments`}>What should change?</label>
              <textarea
                id={`${uid}-comments`}
                rows={2}
                value={comments}
                disabled={roundsLeft <= 0}
                onChange={(e) => setComments(e.target.value)}
              />
            </div>
            <button
              type="submit"
              className="button button-secondary button-small"
              disabled={action.busy || roundsLeft <= 0}
            >
              Request changes
            </button>
            {roundsLeft <= 0 ? (
              <p className="muted">No revision rounds left: more only if the creator agrees.</p>
            ) : (
              <p className="muted">
                {roundsLeft} revision round{roundsLeft === 1 ? '' : 's'} left.
              </p>
            )}
          </form>
        </div>
      ) : null}

      {creator && item.status === 'draft_submitted' && roundsLeft <= 0 ? (
        <button
          type="button"
          className="button button-ghost button-small"
          disabled={action.busy}
          onClick={() => void action.run(() => agreeToExtraRound(db, app, me, item.id))}
        >
          Agree to one more revision round
        </button>
      ) : null}

      {creator && item.status === 'approved' ? (
        <form
          className="form work-form"
          onSubmit={(e) => void onLive(e)}
          aria-label={`Submit live link: ${item.title}`}
        >
          <div className="field">
            <label htmlFor={`${uid}-live`}>Link to the published post</label>
            <input id={`${uid}-live`} type="url" required value={live} onChange={(e) => setLive(e.target.value)} />
          </div>
          <button type="submit" className="button button-primary button-small" disabled={action.busy}>
            Submit live link
          </button>
        </form>
      ) : null}

      {(item.status === 'live_submitted' || item.status === 'live') && item.liveUrl ? (
        <p>
          Live link: <OutsideLink url={item.liveUrl} />
        </p>
      ) : null}
      {item.status === 'live_submitted' ? (
        <p className="muted">
          {item.confirmDueAt
            ? `It will be confirmed automatically on ${instantDateText(item.confirmDueAt)} unless the brand confirms it sooner.`
            : 'Waiting for the brand to confirm it.'}
        </p>
      ) : null}
      {!creator && item.status === 'live_submitted' && item.liveId ? (
        <button
          type="button"
          className="button button-primary button-small"
          disabled={action.busy}
          onClick={() => void action.run(() => confirmLive(db, app, me, item.id, item.liveId!))}
        >
          Confirm live link
        </button>
      ) : null}
      <FormError message={action.error} />
    </li>
  );
}
