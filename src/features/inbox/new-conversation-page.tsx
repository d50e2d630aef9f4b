import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAuth } from '../../lib/session/auth-context.ts';
import { useDatabase } from '../../db/hooks/use-database.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { findOrStartConversation } from './data/inbox-operations.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * /inbox/new?with=<profileId>[&deal=<dealId>]: where "Message" buttons anywhere in Pacta lead. Finds
 * the conversation with that person (about that deal) or starts it — offline too — and opens it.
 */
export function NewConversationPage() {
  usePageTitle('Inbox');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const db = useDatabase();
  const me = useAuth().user?.id ?? null;
  const other = params.get('with') ?? '';
  const deal = params.get('deal') || null;
  const [error, setError] = useState<string | null>(null);
  const invalid =
    !UUID.test(other) || (deal !== null && !UUID.test(deal)) ? 'This conversation link is not valid.' : null;

  useEffect(() => {
    if (!db || !me || invalid) return;
    let cancelled = false;
    void (async () => {
      try {
        const title = deal ? ((await db.deals.findOne(deal).exec())?.title ?? '') : '';
        const id = await findOrStartConversation(db, me, other.toLowerCase(), deal?.toLowerCase() ?? null, title);
        if (!cancelled) navigate(`/inbox/${id}`, { replace: true });
      } catch (err) {
        if (!cancelled) setError(err instanceof Error ? err.message : 'Failed to load conversations.');
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [db, me, other, deal, invalid, navigate]);

  const problem = invalid ?? error;
  return (
    <div className="page container inbox-page">
      <h1 className="visually-hidden">Inbox</h1>
      {problem ? (
        <div className="card inbox-error" role="alert">
          <p>{problem}</p>
          <Link to="/inbox" className="button button-secondary">
            Go to Inbox
          </Link>
        </div>
      ) : (
        <p className="muted" role="status">
          Loading inbox...
        </p>
      )}
    </div>
  );
}
