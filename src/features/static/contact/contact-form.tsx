import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { CONTACT_SUBJECTS, validateContact, type ContactDraft, type ContactErrors } from './contact-validation.ts';
import { submitContactMessage } from '../data/submit-contact-message.ts';
import { FormError } from '../../../components/form-error.tsx';
import { useFixableFieldErrors } from '../../../lib/fixable-errors.ts';

const EMPTY: ContactDraft = { name: '', email: '', subject: '', message: '' };

function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}{' '}
        <span className="required" aria-hidden="true">
          *
        </span>
      </label>
      {children}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

const checkContact = (draft: ContactDraft): ContactErrors => {
  const result = validateContact(draft);
  return result.ok ? {} : result.errors;
};

export function ContactForm() {
  const uid = useId();
  const [draft, setDraft] = useState<ContactDraft>(EMPTY);
  const [errors, setErrors] = useFixableFieldErrors<ContactDraft, keyof ContactErrors & string>(draft, checkContact);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const ids = { name: `${uid}-name`, email: `${uid}-email`, subject: `${uid}-subject`, message: `${uid}-message` };
  const set = (key: keyof ContactDraft) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));
  const a11y = (key: keyof ContactDraft) => ({
    id: ids[key],
    required: true,
    'aria-invalid': errors[key] ? true : undefined,
    'aria-describedby': errors[key] ? `${ids[key]}-error` : undefined,
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    const result = validateContact(draft);
    if (!result.ok) {
      setErrors(result.errors);
      const firstInvalid = (Object.keys(result.errors) as (keyof ContactDraft)[])[0];
      if (firstInvalid) document.getElementById(ids[firstInvalid])?.focus();
      return;
    }
    setErrors({});
    setSending(true);
    const outcome = await submitContactMessage(result.value);
    setSending(false);
    if (outcome.ok) {
      setSent(true);
      setDraft(EMPTY);
    } else {
      setFailure(outcome.message);
    }
  }

  if (sent) {
    return (
      <div className="card" role="status">
        <h2>Message Sent!</h2>
        <p>Thank you for reaching out! We'll get back to you within 24 hours.</p>
        <button type="button" className="button button-secondary" onClick={() => setSent(false)}>
          Send another message
        </button>
      </div>
    );
  }

  return (
    <form className="form card" noValidate onSubmit={(e) => void onSubmit(e)} aria-label="Contact form">
      <Field id={ids.name} label="Name" error={errors.name}>
        <input type="text" autoComplete="name" value={draft.name} onChange={set('name')} {...a11y('name')} />
      </Field>
      <Field id={ids.email} label="Email" error={errors.email}>
        <input type="email" autoComplete="email" value={draft.email} onChange={set('email')} {...a11y('email')} />
      </Field>
      <Field id={ids.subject} label="Subject" error={errors.subject}>
        <select value={draft.subject} onChange={set('subject')} {...a11y('subject')}>
          <option value="">Choose a subject</option>
          {CONTACT_SUBJECTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </Field>
      <Field id={ids.message} label="Message" error={errors.message}>
        <textarea value={draft.message} onChange={set('message')} {...a11y('message')} />
      </Field>
      <FormError message={failure} />
      <div>
        <button type="submit" className="button button-primary" disabled={sending}>
          {sending ? 'Sending...' : 'Send Message'}
        </button>
      </div>
    </form>
  );
}
