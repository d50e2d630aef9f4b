import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { useDatabase } from '../../db/hooks/use-database.ts';
import { FormError } from '../../components/form-error.tsx';
import type {
  ConversationDocument,
  DealDocument,
  MessageDocument,
  ProfileDocument,
} from '../../domain/collections/index.ts';
import { MESSAGE_MAX_LENGTH, messageBodyProblem, myReadSeq } from '../../domain/messages.ts';
import { Avatar } from './avatar.tsx';
import { markConversationRead, retryMessage, sendMessage } from './data/inbox-operations.ts';
import { useMessages } from './data/use-inbox-data.ts';
import { AttachmentView, PendingAttachment } from './message-attachments.tsx';
import { useUploads } from '../../db/hooks/use-uploads.ts';
import { queueUpload } from '../../db/uploads/upload-queue.ts';
import { BUCKETS } from '../../domain/files.ts';
import { formatBytes } from '../../domain/media.ts';
import { v7 as uuidv7 } from 'uuid';
import { displayName, shortTime } from './inbox-format.ts';
import { useAbsentName } from './use-absent-name.ts';
import { useComposerDraft } from './use-composer-draft.ts';
import { PersonActions, useBlockedPeople } from '../account/index.ts';
import { emptyConversationText } from './conversation-texts.ts';

/** The message log is a scrollable region: keyboard users must be able to reach it to scroll it. */
const SCROLLABLE_REGION_TAB_STOP = 0;

type Props = {
  me: string;
  conversation: ConversationDocument;
  other: ProfileDocument | undefined;
  deal: DealDocument | undefined;
};

/** One conversation: its messages in the server's order, pending and failed ones marked, and the composer. */
export function ConversationPane({ me, conversation, other, deal }: Props) {
  const db = useDatabase();
  const messages = useMessages(conversation.id);
  const absent = useAbsentName();
  const name = displayName(other, absent);
  const otherId = conversation.user1_id === me ? conversation.user2_id : conversation.user1_id;
  // Predicts the server's rule: no messages either way between two people when one blocked the other.
  const blocked = useBlockedPeople(me).includes(otherId);
  const logRef = useRef<HTMLOListElement>(null);
  const list = messages.data ?? [];
  const sending = useUploads(me).filter(
    (j) => j.target.kind === 'attachment' && j.target.conversationId === conversation.id,
  );

  // Opening the conversation reads it (on every device, through the synced read position).
  const unread = (conversation.last_seq ?? 0) > myReadSeq(conversation, me);
  useEffect(() => {
    if (!db || !unread) return;
    const read = () => {
      if (document.visibilityState === 'visible') void markConversationRead(db, conversation.id, me);
    };
    read();
    document.addEventListener('visibilitychange', read);
    return () => document.removeEventListener('visibilitychange', read);
  }, [db, unread, conversation.id, me]);

  // Keep the newest message in view.
  const last = list.at(-1)?.id;
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [last, list.length]);

  return (
    <section className="conversation-pane" aria-labelledby="conversation-title">
      <header className="conversation-header">
        <Link to="/inbox" className="button button-ghost button-small conversation-back">
          <span aria-hidden="true">←</span> <span className="conversation-back-label">All conversations</span>
        </Link>
        <Avatar profile={other} absent={absent} />
        <div>
          <h2 id="conversation-title">{name}</h2>
          {conversation.deal_id ? (
            <Link className="conversation-deal-link" to={`/deals/${conversation.deal_id}`}>
              {deal?.title ?? (conversation.title || 'View deal')}
            </Link>
          ) : conversation.title ? (
            <p className="muted">{conversation.title}</p>
          ) : null}
        </div>
        {other ? <PersonActions personId={otherId} name={name} small /> : null}
      </header>
      {messages.error ? (
        <p className="form-error" role="alert">
          Failed to load messages.
        </p>
      ) : list.length === 0 && !messages.loading ? (
        <p className="muted conversation-empty">{emptyConversationText(name)}</p>
      ) : null}
      <ol
        className="message-log"
        ref={logRef}
        aria-label={`Messages with ${name}`}
        aria-live="polite"
        tabIndex={SCROLLABLE_REGION_TAB_STOP}
      >
        {list.map((m) => (
          <MessageBubble key={m.id} message={m} mine={m.sender_id === me} />
        ))}
        {sending.map((job) => (
          <PendingAttachment key={job.id} job={job} />
        ))}
      </ol>
      {blocked ? (
        <p className="muted conversation-blocked">
          You blocked {name}: neither of you can send messages here. Unblock them above or in{' '}
          <Link to="/settings?section=privacy">Settings → Privacy</Link>.
        </p>
      ) : (
        <Composer conversation={conversation} me={me} />
      )}
    </section>
  );
}

function ClockIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="14"
      height="14"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </svg>
  );
}

function MessageBubble({ message, mine }: { message: MessageDocument; mine: boolean }) {
  const db = useDatabase();
  const failed = message.sync_rejection;
  const pending = !failed && message.seq == null;
  return (
    <li
      className={`message${mine ? ' is-mine' : ''}${pending ? ' is-pending' : ''}${failed ? ' is-failed' : ''}`}
      data-seq={message.seq ?? undefined}
    >
      {message.body ? <p className="message-body">{message.body}</p> : null}
      {(message.attachments ?? []).map((file) => (
        <AttachmentView key={file.path} file={file} />
      ))}
      <p className="message-meta">
        <time dateTime={message.created_at}>{shortTime(message.created_at)}</time>
        {pending ? (
          <span className="message-pending" title="Waiting to send: it goes out when you are back online">
            <ClockIcon />
            <span className="visually-hidden">Pending</span>
          </span>
        ) : null}
      </p>
      {failed ? (
        <p className="message-failed" role="alert">
          Not sent: {failed.message}{' '}
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => db && void retryMessage(db, message.id)}
          >
            Retry
          </button>
        </p>
      ) : null}
    </li>
  );
}

function Composer({ conversation, me }: { conversation: ConversationDocument; me: string }) {
  const db = useDatabase();
  const [body, setBody] = useComposerDraft(me, conversation.id);
  const [error, setError] = useState<string | null>(null);

  async function send() {
    // "Messages are sent only if non-empty after trimming": a blank one is simply not sent.
    if (!db || body.trim() === '') return;
    const problem = messageBodyProblem(body);
    if (problem) {
      setError(problem);
      return;
    }
    try {
      await sendMessage(db, conversation, me, body);
      setBody('');
      setError(null);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The message could not be saved. Please try again.');
    }
  }

  const fileInput = useRef<HTMLInputElement>(null);
  // A file goes with what is typed as its message; it is kept on the device and sent when online.
  async function attach(file: File | undefined) {
    if (!file) return;
    const rule = BUCKETS.attachments;
    if (!(rule.allowedTypes as readonly string[]).includes(file.type)) {
      setError('You can send images (JPEG, PNG, WebP), videos (MP4, WebM, QuickTime) and PDF files.');
      return;
    }
    if (file.size > rule.maxBytes) {
      setError(`A file can be at most ${formatBytes(rule.maxBytes)}.`);
      return;
    }
    const problem = body.trim() ? messageBodyProblem(body) : null;
    if (problem) {
      setError(problem);
      return;
    }
    await queueUpload({
      userId: me,
      bucket: 'attachments',
      folder: conversation.id,
      file,
      fileName: file.name,
      target: {
        kind: 'attachment',
        conversationId: conversation.id,
        recipientId: conversation.user1_id === me ? conversation.user2_id : conversation.user1_id,
        messageId: uuidv7(),
        body: body.trim(),
      },
    });
    setBody('');
    setError(null);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends; Shift+Enter starts a new line (and Enter while composing with an IME does neither).
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void send();
  }

  const near = body.length > MESSAGE_MAX_LENGTH - 200;
  return (
    <form className="composer" onSubmit={onSubmit}>
      <label className="visually-hidden" htmlFor="message-input">
        Message
      </label>
      <textarea
        id="message-input"
        rows={2}
        placeholder="Type a message..."
        value={body}
        onChange={(e) => {
          setBody(e.target.value);
          if (error) setError(null);
        }}
        onKeyDown={onKeyDown}
        aria-describedby={near ? 'message-length' : undefined}
      />
      <input
        ref={fileInput}
        className="visually-hidden"
        type="file"
        tabIndex={-1}
        accept={BUCKETS.attachments.allowedTypes.join(',')}
        aria-label="Attach a file"
        data-testid="attachment-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          void attach(file);
        }}
      />
      <button type="button" className="button button-secondary" onClick={() => fileInput.current?.click()}>
        Attach
      </button>
      <button type="submit" className="button button-primary">
        Send
      </button>
      {near ? (
        <p id="message-length" className={`composer-length${body.length > MESSAGE_MAX_LENGTH ? ' is-over' : ''}`}>
          {body.length.toLocaleString('en-US')} / {MESSAGE_MAX_LENGTH.toLocaleString('en-US')}
        </p>
      ) : null}
      <FormError message={error} />
    </form>
  );
}
