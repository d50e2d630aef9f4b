import {
  openTabChannel,
  parseLeaderTabMessage,
  type LeaderTabMessage,
  type OpenBroadcast,
  type TabChannel,
} from './sync/tab-channel.ts';

/**
 * Which tab replicates. The tabs of one user share one local database and exactly one of them, the
 * leader, talks to the sync server. The leader holds a Web Lock, which the browser releases when the
 * tab closes or crashes. A frozen or hung tab keeps its lock for as long as it stays frozen, so the
 * leader also says it is alive on a BroadcastChannel every `beatMs`; a visible tab that has heard
 * nothing for `staleMs` steals the lock. The old leader finds out before it sends anything again:
 * every request first confirms that this tab still holds the lock (after a pause, by asking the
 * browser), and a tab that lost it stops replicating and queues for the lock like any other tab.
 *
 * Only a visible tab steals, so two hidden tabs whose timers the browser slows down do not take the
 * lock from each other in turn; a visible tab taking over from a hidden, throttled leader is what we
 * want anyway (it syncs without delays).
 */
export type TabLeadership = {
  readonly isLeader: boolean;
  /** True when this tab may send to the sync server now; a tab that finds it lost the lock yields first. */
  confirm(): Promise<boolean>;
  /** Leaves the election (the tab signs out or closes its database); no hook runs afterwards. */
  stop(): void;
};

type Hooks = {
  /** This tab holds the lock: start replicating. */
  onElected(): void;
  /** Another tab took over: stop replicating (this tab queues for the lock again by itself). */
  onYield(): void;
};

type Grant = { release: () => void };

export function electTabLeader(
  name: string,
  hooks: Hooks,
  opts: { beatMs?: number; staleMs?: number; openBroadcast?: OpenBroadcast } = {},
): TabLeadership {
  const lockName = `pacta-sync-leader-${name}`;
  const tab: Candidate = {
    lockName,
    hooks,
    beatMs: opts.beatMs ?? 2_000,
    staleMs: opts.staleMs ?? 10_000,
    channel: openTabChannel(lockName, parseLeaderTabMessage, opts.openBroadcast),
    stopped: false,
    lastConfirmed: 0,
    lastHeard: Date.now(),
  };
  const timer = watchTheLeader(tab);
  tab.channel.onMessage(() => {
    tab.lastHeard = Date.now();
    // Two tabs beating: the one that was stolen from learns it right away.
    if (tab.grant) void check(tab);
  });
  request(tab, false);

  return {
    get isLeader() {
      return tab.grant !== undefined;
    },
    async confirm() {
      if (!tab.grant) return false;
      if (Date.now() - tab.lastConfirmed < tab.beatMs) return true;
      return check(tab);
    },
    stop() {
      if (tab.stopped) return;
      tab.stopped = true;
      clearInterval(timer);
      tab.queued?.abort();
      tab.grant?.release();
      tab.grant = undefined;
      tab.channel.close();
    },
  };
}

/** One tab in the election. */
type Candidate = {
  lockName: string;
  hooks: Hooks;
  beatMs: number;
  staleMs: number;
  channel: TabChannel<LeaderTabMessage>;
  stopped: boolean;
  /** This tab's hold of the lock, while it leads. */
  grant?: Grant;
  /** The browser's id of the lock holder when this tab got the lock. */
  clientId?: string;
  lastConfirmed: number;
  /** When the leader (or this tab, leading) last said it is alive. */
  lastHeard: number;
  /** This tab's place in the lock's queue. */
  queued?: AbortController;
};

const holder = async (tab: Candidate) =>
  (await navigator.locks.query()).held?.find((lock) => lock.name === tab.lockName);

function yieldLeadership(tab: Candidate, from: Grant): void {
  if (tab.grant !== from) return;
  tab.grant = undefined;
  tab.clientId = undefined;
  // Another tab leads now: its beats count from here (a tab waking from a freeze must not take the
  // lock back before the new leader's first beat reaches it).
  tab.lastHeard = Date.now();
  from.release();
  if (tab.stopped) return;
  tab.hooks.onYield();
  request(tab, false);
}

function request(tab: Candidate, steal: boolean): void {
  const controller = new AbortController();
  if (!steal) tab.queued = controller;
  let mine: Grant | undefined;
  navigator.locks
    .request(tab.lockName, steal ? { steal: true } : { signal: controller.signal }, async () => {
      if (tab.stopped) return;
      if (tab.queued === controller) tab.queued = undefined;
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      mine = tab.grant = { release };
      tab.clientId = (await holder(tab))?.clientId;
      tab.lastConfirmed = tab.lastHeard = Date.now();
      tab.channel.post({ type: 'beat' });
      tab.hooks.onElected();
      await held;
    })
    // Stolen by another tab while this one held it (or aborted while queued: then `mine` is unset).
    .catch(() => mine && yieldLeadership(tab, mine));
}

/** Asks the browser whether this tab still holds the lock; yields if not. */
async function check(tab: Candidate): Promise<boolean> {
  const asked = tab.grant;
  if (!asked) return false;
  const lock = await holder(tab);
  if (tab.grant !== asked) return false;
  if (lock && (tab.clientId === undefined || lock.clientId === tab.clientId)) {
    tab.lastConfirmed = Date.now();
    return true;
  }
  yieldLeadership(tab, asked);
  return false;
}

/** Every `beatMs`: the leader beats (once it confirmed it still holds the lock); a visible follower that heard nothing for `staleMs` steals. */
function watchTheLeader(tab: Candidate): ReturnType<typeof setInterval> {
  let lastTick = Date.now();
  return setInterval(() => {
    // This tab itself was frozen or throttled: the leader's beats may still be on their way.
    if (Date.now() - lastTick > tab.staleMs) tab.lastHeard = Date.now();
    lastTick = Date.now();
    if (tab.grant) {
      void check(tab).then((still) => still && tab.channel.post({ type: 'beat' }));
      return;
    }
    if (document.visibilityState !== 'visible' || Date.now() - tab.lastHeard < tab.staleMs) return;
    // The leader said nothing for too long: it is frozen or hung. Take the lock from it.
    tab.lastHeard = Date.now();
    tab.queued?.abort();
    tab.queued = undefined;
    request(tab, true);
  }, tab.beatMs);
}
