import { Link } from 'react-router-dom';
import './growth-cards.css';
import { levelForXp } from '../../domain/xp.ts';

/**
 * Leaderboard card (spec 000 §2): the user's XP and level from the synced profile. The rank compares
 * the user with everyone, which only the server knows (other users' profiles are not on this device),
 * so it is shown on the leaderboard page, which needs a connection.
 */
export function LeaderboardCard({ xp, referrals }: { xp: number; referrals: number }) {
  return (
    <section className="card leaderboard-card" aria-labelledby="leaderboard-title">
      <h2 id="leaderboard-title">Leaderboard</h2>
      <dl className="mini-stats">
        <div>
          <dt>Your rank</dt>
          <dd className="muted-value">Rank available online</dd>
        </div>
        <div>
          <dt>XP</dt>
          <dd>{xp}</dd>
        </div>
        <div>
          <dt>Level</dt>
          <dd>{levelForXp(xp)}</dd>
        </div>
        <div>
          <dt>Referrals</dt>
          <dd>{referrals}</dd>
        </div>
      </dl>
      <Link to="/referrals/leaderboard">See the leaderboard</Link>
    </section>
  );
}
