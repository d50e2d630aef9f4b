import { useId, useState, type FormEvent } from 'react';
import { useDatabase } from '../../db/hooks/use-database.ts';
import { ProfileEditError, SocialLinksForm, updateProfile } from '../profiles/index.ts';
import type { ProfileDocument } from '../../domain/collections/index.ts';
import { NICHES, type Niche } from '../../domain/niches.ts';
import { MESSAGES } from '../../lib/errors.ts';
import { toastError, toastSuccess } from '../../lib/toasts.ts';
import { ProfilePictureField } from './profile-picture-field.tsx';

export const EMAIL_READ_ONLY_TEXT = 'Email cannot be changed. Contact support if needed.';

type Errors = Partial<Record<'full_name' | 'bio' | 'niches', string>>;

/**
 * Account: full name, bio and niches (saved to the local database: works offline, syncs later),
 * the read-only e-mail, and the social links.
 */
export function AccountSection({
  profile,
  email,
  role,
}: {
  profile: ProfileDocument;
  email: string;
  role: 'brand' | 'creator';
}) {
  const db = useDatabase();
  const id = useId();
  const [fullName, setFullName] = useState(profile.full_name);
  const [bio, setBio] = useState(profile.bio);
  const [niches, setNiches] = useState<string[]>(profile.niches);
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  const toggleNiche = (niche: Niche) =>
    setNiches((list) => (list.includes(niche) ? list.filter((n) => n !== niche) : [...list, niche]));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!db) return;
    setSaving(true);
    setErrors({});
    try {
      // Niches are validated (1..26) when the user changed them; an account that never chose any can still save its name.
      const nichesChanged = niches.join('\u0000') !== profile.niches.join('\u0000');
      await updateProfile(db, profile.id, {
        full_name: fullName,
        bio,
        ...(nichesChanged ? { niches: niches as Niche[] } : {}),
      });
      toastSuccess('Settings updated successfully');
    } catch (err) {
      if (err instanceof ProfileEditError) {
        setErrors(Object.fromEntries(err.issues.map((i) => [i.field, i.message])) as Errors);
      } else {
        toastError(MESSAGES.settingsUpdateFailed);
      }
    } finally {
      setSaving(false);
    }
  }

  const fieldProps = (field: keyof Errors) =>
    errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-${field}-error` } : {};
  const fieldError = (field: keyof Errors) =>
    errors[field] ? (
      <p className="field-error" id={`${id}-${field}-error`}>
        {errors[field]}
      </p>
    ) : null;

  return (
    <div className="settings-stack">
      <form
        className="form card settings-form"
        onSubmit={(e) => void onSubmit(e)}
        noValidate
        aria-labelledby={`${id}-title`}
      >
        <h2 id={`${id}-title`}>Profile</h2>
        <ProfilePictureField profile={profile} role={role} />
        <div className="field">
          <label htmlFor={`${id}-name`}>{role === 'brand' ? 'Company Name' : 'Full Name'}</label>
          <input
            id={`${id}-name`}
            value={fullName}
            onChange={(e) => setFullName(e.target.value)}
            autoComplete={role === 'brand' ? 'organization' : 'name'}
            required
            {...fieldProps('full_name')}
          />
          {fieldError('full_name')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input id={`${id}-email`} type="email" value={email} readOnly aria-describedby={`${id}-email-help`} />
          <p className="muted field-help" id={`${id}-email-help`}>
            {EMAIL_READ_ONLY_TEXT}
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-bio`}>Bio</label>
          <textarea
            id={`${id}-bio`}
            value={bio}
            maxLength={2000}
            onChange={(e) => setBio(e.target.value)}
            {...fieldProps('bio')}
          />
          <p className="muted field-help">{bio.length}/2000</p>
          {fieldError('bio')}
        </div>
        <fieldset
          className="field niche-picker"
          {...(errors.niches ? { 'aria-describedby': `${id}-niches-error` } : {})}
        >
          <legend>
            Niches <span className="muted">({niches.length} chosen, at least 1)</span>
          </legend>
          <div className="niche-chips">
            {NICHES.map((niche) => (
              <button
                type="button"
                className="chip"
                key={niche}
                aria-pressed={niches.includes(niche)}
                onClick={() => toggleNiche(niche)}
              >
                {niche}
              </button>
            ))}
          </div>
          {fieldError('niches')}
        </fieldset>
        <div>
          <button type="submit" className="button button-primary" disabled={saving || !db}>
            {saving ? 'Saving...' : 'Save changes'}
          </button>
        </div>
      </form>
      <div className="card" id="social">
        <SocialLinksForm
          userId={profile.id}
          role={role}
          links={profile.social_links}
          rejection={profile.sync_rejection}
        />
      </div>
    </div>
  );
}
