import { openTabChannel, parseLeaderTabMessage, type OpenBroadcast } from './sync/tab-channel.ts';

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
  const beatMs = opts.beatMs ?? 2_000;
  const staleMs = opts.staleMs ?? 10_000;
  const lockName = `pacta-sync-leader-${name}`;
  const channel = openTabChannel(lockName, parseLeaderTabMessage, opts.openBroadcast);
  let stopped = false;
  let grant: Grant | undefined;
  let clientId: string | undefined;
  let lastConfirmed = 0;
  let lastHeard = Date.now();
  let queued: AbortController | undefined;

  const holder = async () => (await navigator.locks.query()).held?.find((lock) => lock.name === lockName);

  const yieldLeadership = (from: Grant) => {
    if (grant !== from) return;
    grant = undefined;
    clientId = undefined;
    // Another tab leads now: its beats count from here (a tab waking from a freeze must not take the
    // lock back before the new leader's first beat reaches it).
    lastHeard = Date.now();
    from.release();
    if (stopped) return;
    hooks.onYield();
    request(false);
  };

  const request = (steal: boolean) => {
    const controller = new AbortController();
    if (!steal) queued = controller;
    let mine: Grant | undefined;
    navigator.locks
      .request(lockName, steal ? { steal: true } : { signal: controller.signal }, async () => {
        if (stopped) return;
        if (queued === controller) queued = undefined;
        let release = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        mine = grant = { release };
        clientId = (await holder())?.clientId;
        lastConfirmed = lastHeard = Date.now();
        channel.post({ type: 'beat' });
        hooks.onElected();
        await held;
      })
      // Stolen by another tab while this one held it (or aborted while queued: then `mine` is unset).
      .catch(() => mine && yieldLeadership(mine));
  };

  /** Asks the browser whether this tab still holds the lock; yields if not. */
  const check = async (): Promise<boolean> => {
    const asked = grant;
    if (!asked) return false;
    const lock = await holder();
    if (grant !== asked) return false;
    if (lock && (clientId === undefined || lock.clientId === clientId)) {
      lastConfirmed = Date.now();
      return true;
    }
    yieldLeadership(asked);
    return false;
  };

  let lastTick = Date.now();
  const timer = setInterval(() => {
    // This tab itself was frozen or throttled: the leader's beats may still be on their way.
    if (Date.now() - lastTick > staleMs) lastHeard = Date.now();
    lastTick = Date.now();
    if (grant) {
      void check().then((still) => still && channel.post({ type: 'beat' }));
      return;
    }
    if (document.visibilityState !== 'visible' || Date.now() - lastHeard < staleMs) return;
    // The leader said nothing for too long: it is frozen or hung. Take the lock from it.
    lastHeard = Date.now();
    queued?.abort();
    queued = undefined;
    request(true);
  }, beatMs);

  channel.onMessage(() => {
    lastHeard = Date.now();
    // Two tabs beating: the one that was stolen from learns it right away.
    if (grant) void check();
  });

  request(false);

  return {
    get isLeader() {
      return grant !== undefined;
    },
    async confirm() {
      if (!grant) return false;
      if (Date.now() - lastConfirmed < beatMs) return true;
      return check();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      queued?.abort();
      grant?.release();
      grant = undefined;
      channel.close();
    },
  };
}
