import './account.css';
import { Link } from 'react-router-dom';
import { useDatabase } from '../../db/hooks/use-database.ts';
import { useLiveQuery } from '../../db/hooks/use-live-query.ts';
import { useAuth } from '../../lib/session/auth-context.ts';
import { toastSuccess } from '../../lib/toasts.ts';
import { endSentence } from '../../domain/end-sentence.ts';
import { unblockPerson } from './data/blocks.ts';
import { useBlockedPeople } from './data/use-blocked-people.ts';

/** Settings → Privacy: the people the user blocked, each with Unblock. */
export function BlockedPeopleCard() {
  const db = useDatabase();
  const userId = useAuth().user?.id;
  const blocked = useBlockedPeople(userId);
  const names = useLiveQuery(
    (database) => (blocked.length ? database.profiles.findByIds([...blocked]).$ : null),
    [blocked],
  );

  async function unblock(personId: string, name: string) {
    if (!db || !userId) return;
    await unblockPerson(db, userId, personId);
    toastSuccess(endSentence(`You unblocked ${name}`));
  }

  return (
    <section className="card" aria-labelledby="blocked-title">
      <h2 id="blocked-title">Blocked people</h2>
      {blocked.length === 0 ? (
        <p className="muted">You have not blocked anyone. Block someone from their profile or a conversation.</p>
      ) : (
        <ul className="blocked-list">
          {blocked.map((personId) => {
            const profile = names.data?.get(personId);
            const name = profile?.full_name || (profile?.username ? `@${profile.username}` : 'Pacta member');
            return (
              <li key={personId}>
                <Link to={`/profile/${personId}`}>{name}</Link>
                <button
                  type="button"
                  className="button button-ghost button-small"
                  disabled={!db}
                  onClick={() => void unblock(personId, name)}
                >
                  Unblock <span className="visually-hidden">{name}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
