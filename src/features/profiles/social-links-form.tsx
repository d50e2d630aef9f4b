import { useEffect, useId, useState, type FormEvent } from 'react';
import './profile-cards.css';
import { useDatabase } from '../../db/hooks/use-database.ts';
import { MESSAGES } from '../../lib/errors.ts';
import { useFixableFieldErrors } from '../../lib/fixable-errors.ts';
import { toastError, toastSuccess } from '../../lib/toasts.ts';
import {
  isVerifiedLink,
  readSocialLinks,
  requiredBadge,
  requiredPlatform,
  SOCIAL_PLATFORMS,
  validateSocialLinks,
  type SocialLinkErrors,
  type SocialLinks,
} from './social-links.ts';
import { updateProfile } from './update-profile.ts';

/** Social-links form: required badge by role, verified flag per link, saved locally. */
export function SocialLinksForm({
  userId,
  role,
  links: stored,
}: {
  userId: string;
  role: 'brand' | 'creator';
  links: Record<string, unknown>;
}) {
  const db = useDatabase();
  const id = useId();
  const [links, setLinks] = useState<SocialLinks>(() => readSocialLinks(stored));
  const [errors, setErrors] = useFixableFieldErrors<SocialLinks, keyof SocialLinkErrors & string>(links, (l) =>
    validateSocialLinks(l, role),
  );
  const [saving, setSaving] = useState(false);
  const storedKey = JSON.stringify(readSocialLinks(stored));
  // A change synced from another device shows here when the user has not started editing.
  useEffect(() => setLinks(JSON.parse(storedKey) as SocialLinks), [storedKey]);
  const required = requiredPlatform(role);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found = validateSocialLinks(links, role);
    setErrors(found);
    if (Object.keys(found).length > 0 || !db) return;
    setSaving(true);
    try {
      const cleaned = Object.fromEntries(
        Object.entries(links)
          .filter(([, v]) => v?.trim())
          .map(([k, v]) => [k, v!.trim()]),
      );
      await updateProfile(db, userId, { social_links: cleaned });
      toastSuccess('Settings updated successfully');
    } catch {
      toastError(MESSAGES.settingsUpdateFailed);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      className="form social-links-form"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`}>Social links</h2>
      {SOCIAL_PLATFORMS.map((platform) => {
        const inputId = `${id}-${platform.key}`;
        const value = links[platform.key] ?? '';
        const error = errors[platform.key];
        return (
          <div className="field" key={platform.key}>
            <label htmlFor={inputId}>
              {platform.label}{' '}
              {platform.key === required ? (
                // Red only while the requirement is unmet: a filled, verified link turns it neutral.
                <span
                  className={`badge ${isVerifiedLink(platform.key, value) ? 'badge-required-met' : 'badge-required'}`}
                >
                  {requiredBadge(role)}
                </span>
              ) : null}{' '}
              {isVerifiedLink(platform.key, value) ? <span className="badge badge-verified">Verified</span> : null}
            </label>
            <input
              id={inputId}
              type="url"
              inputMode="url"
              placeholder={`https://${platform.base}/…`}
              value={value}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${inputId}-error` : undefined}
              onChange={(e) => setLinks((l) => ({ ...l, [platform.key]: e.target.value }))}
            />
            {error ? (
              <p className="field-error" id={`${inputId}-error`}>
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      <div>
        <button type="submit" className="button button-primary" disabled={saving || !db}>
          {saving ? 'Saving...' : 'Save links'}
        </button>
      </div>
    </form>
  );
}
