import { Fragment, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import {
  LEADERBOARD_PERIOD_LABELS,
  LEADERBOARD_PERIODS,
  leaderboardName,
  type LeaderboardPeriod,
} from '../../../domain/leaderboard.ts';
import type { LeaderboardEntry } from '../../../domain/contracts/growth.ts';
import { FilterChips } from '../filter-chips.tsx';
import { seenAtText } from './seen-at.ts';
import { useLeaderboard } from '../data/use-leaderboard.ts';
import '../growth.css';

/** /referrals/leaderboard: 'Referral Leaderboard', top 50 by qualified referrals per period (server-computed). */
export function LeaderboardPage() {
  const { user } = useAuth();
  const [period, setPeriod] = useState<LeaderboardPeriod>('all');
  const board = useLeaderboard(user?.id ?? 'signed-out', period);
  const data = board.data?.period === period ? board.data : null;
  const me = data?.me ?? null;
  const meInTop = !!me && !!data?.entries.some((e) => e.user_id === me.user_id);

  return (
    <div className="container page growth-page">
      <PageHeader
        title="Referral Leaderboard"
        lead="Members ranked by qualified referrals: people who joined through their link and made a deal."
      />
      <FilterChips
        label="Period"
        options={LEADERBOARD_PERIODS}
        labels={LEADERBOARD_PERIOD_LABELS}
        value={period}
        onChange={setPeriod}
      />

      {board.status === 'offline' ? (
        <p className="callout" role="status">
          You are offline: the leaderboard needs a connection.{' '}
          {data && board.seenAt
            ? `Showing the one you saw ${seenAtText(board.seenAt)}.`
            : 'It shows once you are back online.'}
        </p>
      ) : null}
      {board.status === 'error' ? (
        <div className="callout callout-warning inline-error" role="alert">
          <p>Failed to load leaderboard. Please try again.</p>
          <button type="button" className="button button-secondary button-small" onClick={board.retry}>
            Try Again
          </button>
        </div>
      ) : null}
      {board.status === 'loading' && !data ? (
        <p className="muted" role="status">
          Loading leaderboard…
        </p>
      ) : null}

      {data ? (
        <>
          <div className="table-scroll">
            <table className="table leaderboard-table" aria-busy={board.status === 'loading'}>
              <caption className="visually-hidden">
                Referral leaderboard, {LEADERBOARD_PERIOD_LABELS[period].toLowerCase()}
              </caption>
              <thead>
                <tr>
                  <th scope="col" className="num">
                    Rank
                  </th>
                  <th scope="col">Username</th>
                  <th scope="col" className="num">
                    Referrals
                  </th>
                  <th scope="col">Pro</th>
                  <th scope="col" className="num">
                    XP
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.entries.map((e) => (
                  <LeaderboardRow key={e.user_id} entry={e} mine={e.user_id === me?.user_id} />
                ))}
              </tbody>
            </table>
          </div>
          {data.entries.length === 0 ? <p className="muted">No referrals yet in this period.</p> : null}
          {me && !meInTop ? (
            <p className="leaderboard-own-rank" data-testid="own-rank">
              Your rank: <strong>#{me.rank}</strong> with {me.referrals} qualified referral
              {me.referrals === 1 ? '' : 's'} and {me.xp} XP.
            </p>
          ) : null}
        </>
      ) : null}
      <p>
        <Link to="/referrals/payouts">Your referral payouts</Link> · <Link to="/dashboard">Back to Dashboard</Link>
      </p>
    </div>
  );
}

function LeaderboardRow({ entry, mine }: { entry: LeaderboardEntry; mine: boolean }) {
  return (
    <tr className={mine ? 'leaderboard-me' : undefined} aria-current={mine ? 'true' : undefined}>
      <td className="num">#{entry.rank}</td>
      <td>
        <BreakableName name={leaderboardName(entry)} />
        {mine ? <span className="badge leaderboard-you">You</span> : null}
      </td>
      <td className="num">{entry.referrals}</td>
      <td>
        {entry.is_pro ? <span className="badge badge-pro">Pro</span> : <span className="visually-hidden">No</span>}
      </td>
      <td className="num">{entry.xp}</td>
    </tr>
  );
}

/** A username with a line-break opportunity after each underscore, so a narrow column wraps it there. */
function BreakableName({ name }: { name: string }) {
  return (
    <>
      {name.split('_').map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? (
            <>
              _<wbr />
            </>
          ) : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
