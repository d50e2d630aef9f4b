import { useCallback, useEffect, useState } from 'react';
import { getLeaderboard, type LeaderboardResponse } from '../../../domain/contracts/growth.ts';
import type { LeaderboardPeriod } from '../../../domain/leaderboard.ts';
import { syncServerUrl } from '../../../lib/config.ts';
import { sessionRetryFetch } from '../../../lib/session/session.ts';

/**
 * The referral leaderboard is computed by the server (other users' referrals never reach this device),
 * so it is online only. The last one seen is kept per user and period, with its time, so an offline
 * visit can show it and say how old it is.
 */
export type LeaderboardState =
  | { status: 'loading'; data: LeaderboardResponse | null; seenAt: string | null }
  | { status: 'ready'; data: LeaderboardResponse; seenAt: string }
  | { status: 'offline'; data: LeaderboardResponse | null; seenAt: string | null }
  | { status: 'error'; data: LeaderboardResponse | null; seenAt: string | null };

const cacheKey = (userId: string, period: LeaderboardPeriod) => `pacta.leaderboard.${userId}.${period}`;

type Cached = { data: LeaderboardResponse; seenAt: string };

export function readCachedLeaderboard(userId: string, period: LeaderboardPeriod): Cached | null {
  try {
    const raw = localStorage.getItem(cacheKey(userId, period));
    const value = raw ? (JSON.parse(raw) as Cached) : null;
    return value && Array.isArray(value.data?.entries) && typeof value.seenAt === 'string' ? value : null;
  } catch {
    return null;
  }
}

function writeCachedLeaderboard(userId: string, period: LeaderboardPeriod, data: LeaderboardResponse): string {
  const seenAt = new Date().toISOString();
  try {
    localStorage.setItem(cacheKey(userId, period), JSON.stringify({ data, seenAt }));
  } catch {
    // Storage full or blocked: the board still shows, it just will not be there offline.
  }
  return seenAt;
}

export class LeaderboardUnavailable extends Error {
  constructor(readonly offline: boolean) {
    super(offline ? 'offline' : 'Failed to load leaderboard');
  }
}

export async function fetchLeaderboard(period: LeaderboardPeriod): Promise<LeaderboardResponse> {
  if (!navigator.onLine) throw new LeaderboardUnavailable(true);
  let res: Response;
  try {
    res = await sessionRetryFetch(`${syncServerUrl()}/api/referral-leaderboard?period=${period}`, {
      cache: 'no-store',
    });
  } catch {
    throw new LeaderboardUnavailable(!navigator.onLine);
  }
  if (!res.ok) throw new LeaderboardUnavailable(false);
  const answer = getLeaderboard.response[200].safeParse(await res.json());
  if (!answer.success) throw new LeaderboardUnavailable(false);
  return answer.data;
}

function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/** The leaderboard for a period: fetched when online (again when the connection returns), else the last seen. */
export function useLeaderboard(userId: string, period: LeaderboardPeriod): LeaderboardState & { retry(): void } {
  const online = useOnline();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<LeaderboardState>(() => {
    const cached = readCachedLeaderboard(userId, period);
    return { status: 'loading', data: cached?.data ?? null, seenAt: cached?.seenAt ?? null };
  });

  useEffect(() => {
    let current = true;
    const cached = readCachedLeaderboard(userId, period);
    if (!online) {
      setState({ status: 'offline', data: cached?.data ?? null, seenAt: cached?.seenAt ?? null });
      return;
    }
    setState({ status: 'loading', data: cached?.data ?? null, seenAt: cached?.seenAt ?? null });
    fetchLeaderboard(period).then(
      (data) => {
        if (!current) return;
        setState({ status: 'ready', data, seenAt: writeCachedLeaderboard(userId, period, data) });
      },
      (err: unknown) => {
        if (!current) return;
        const offline = err instanceof LeaderboardUnavailable && err.offline;
        setState({ status: offline ? 'offline' : 'error', data: cached?.data ?? null, seenAt: cached?.seenAt ?? null });
      },
    );
    return () => {
      current = false;
    };
  }, [userId, period, online, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
}
