import { Link } from 'react-router-dom';
import './growth-cards.css';
import { levelForXp } from '../../domain/xp.ts';
import { seenAtText } from './leaderboard/seen-at.ts';
import { useLeaderboard } from './data/use-leaderboard.ts';

/**
 * Leaderboard card (spec 000 §2): the user's rank, XP and level. XP and level come from the synced
 * profile (live: an award on the server shows without a reload); the rank compares the user with
 * everyone, which only the server knows, so it is fetched online and the last one seen is shown offline.
 */
export function LeaderboardCard({ userId, xp, referrals }: { userId: string; xp: number; referrals: number }) {
  const board = useLeaderboard(userId, 'all');
  const me = board.data?.me ?? null;
  let rank: string;
  if (me) rank = `#${me.rank}`;
  else if (board.status === 'loading') rank = '…';
  else if (board.status === 'ready') rank = '–';
  else rank = 'Rank available online';
  return (
    <section className="card leaderboard-card" aria-labelledby="leaderboard-title">
      <h2 id="leaderboard-title">Leaderboard</h2>
      <dl className="mini-stats">
        <div>
          <dt>Your rank</dt>
          <dd className={me ? undefined : 'muted-value'} data-testid="leaderboard-rank">
            {rank}
          </dd>
        </div>
        <div>
          <dt>XP</dt>
          <dd data-testid="leaderboard-xp">{xp}</dd>
        </div>
        <div>
          <dt>Level</dt>
          <dd data-testid="leaderboard-level">{levelForXp(xp)}</dd>
        </div>
        <div>
          <dt>Referrals</dt>
          <dd>{referrals}</dd>
        </div>
      </dl>
      {me && board.status !== 'ready' && board.seenAt ? (
        <p className="muted leaderboard-seen">Rank as seen {seenAtText(board.seenAt)}.</p>
      ) : null}
      <Link to="/referrals/leaderboard">See the leaderboard</Link>
    </section>
  );
}
