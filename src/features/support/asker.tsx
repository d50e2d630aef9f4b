import { isOwnPicture } from '../../domain/pictures.ts';
import { storageSrc } from '../../lib/storage-src.ts';
import type { ProfileDocument, SupportTicketDocument } from '../../domain/collections/index.ts';

/** Who asked: username and avatar (or initials), or the contact form's name and e-mail. */
export function Asker({ ticket, profile }: { ticket: SupportTicketDocument; profile: ProfileDocument | undefined }) {
  const name = profile?.username ? `@${profile.username}` : profile?.full_name || ticket.contact_name || 'Visitor';
  const full = profile?.full_name && profile.username ? profile.full_name : null;
  return (
    <span className="asker">
      <Avatar
        url={profile?.avatar_url ?? null}
        name={profile?.full_name || profile?.username || ticket.contact_name || '?'}
      />
      <span className="asker-names">
        <span className="asker-username">{name}</span>
        {full ? <span className="muted asker-full">{full}</span> : null}
        {!profile && ticket.contact_email ? <span className="muted asker-full">{ticket.contact_email}</span> : null}
      </span>
    </span>
  );
}

export function Avatar({ url, name }: { url: string | null; name: string }) {
  // Only Pacta's own pictures: one on another site would tell it who opened the ticket.
  if (isOwnPicture(url))
    return <img className="avatar" src={storageSrc(url)} alt="" width={36} height={36} loading="lazy" />;
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('');
  return (
    <span className="avatar avatar-initials" aria-hidden="true">
      {initials || '?'}
    </span>
  );
}
