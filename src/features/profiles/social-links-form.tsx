import { useEffect, useId, useState, type FormEvent } from 'react';
import './profile-cards.css';
import { useDatabase } from '../../db/hooks/use-database.ts';
import { MESSAGES } from '../../lib/errors.ts';
import { useFixableFieldErrors } from '../../lib/fixable-errors.ts';
import { toastError, toastSuccess } from '../../lib/toasts.ts';
import { SOCIAL_LINK_RULE } from '../../domain/social-links.ts';
import {
  isVerifiedLink,
  readSocialLinks,
  requiredBadge,
  requiredPlatform,
  SOCIAL_PLATFORMS,
  validateSocialLinks,
  type SocialLinkErrors,
  type SocialLinks,
} from './data/social-links.ts';
import { updateProfile } from './data/update-profile.ts';

/** The server's refusals of a profile's links (the database's social-links rule). */
const LINK_REFUSALS = new Set(['invalid_social_link', 'unknown_social_platform']);

/**
 * Social-links form: the rule, required badge by role, verified flag per link, saved locally; a
 * refusal by the server (the profile's sync_rejection) shows under the form.
 */
export function SocialLinksForm({
  userId,
  role,
  links: stored,
  rejection,
}: {
  userId: string;
  role: 'brand' | 'creator';
  links: Record<string, unknown>;
  rejection?: { code: string; message: string } | null | undefined;
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
      <p className="muted" id={`${id}-rule`}>
        {SOCIAL_LINK_RULE}
      </p>
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
              placeholder={`https://${platform.hosts[0]}/…`}
              value={value}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${inputId}-error ${id}-rule` : `${id}-rule`}
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
      {rejection && LINK_REFUSALS.has(rejection.code) ? (
        <p className="field-error" role="alert">
          Your links were not saved: {rejection.message}
        </p>
      ) : null}
      <div>
        <button type="submit" className="button button-primary" disabled={saving || !db}>
          {saving ? 'Saving...' : 'Save links'}
        </button>
      </div>
    </form>
  );
}
