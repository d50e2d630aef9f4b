import type { SyncStatus } from '../sync-status.ts';

/**
 * What the tabs of one user tell each other, one union per channel. A message that is not one of
 * these (another version of the app in an old tab, anything else posted on the name) is ignored.
 */
export type SyncTabMessage =
  /** A tab opened (or stopped leading): the leader answers with its status. */
  | { type: 'hello' }
  /** The user asked to try the server again: the leader pulls and pushes now. */
  | { type: 'retry' }
  /** The leader's sync status, for the tabs that do not replicate. */
  | { type: 'status'; status: SyncStatus };

/** The leader is alive (see tab-leadership.ts). */
export type LeaderTabMessage = { type: 'beat' };

/** The part of a BroadcastChannel a tab channel uses: unit tests pass a stand-in. */
export type BroadcastPort = {
  postMessage(data: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
  close(): void;
};
export type OpenBroadcast = (name: string) => BroadcastPort | undefined;

/** The browser's BroadcastChannel, where there is one. */
export const openBroadcastChannel: OpenBroadcast = (name) =>
  typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(name);

export type TabChannel<M> = {
  post(message: M): void;
  /** The one handler of incoming messages (a later call replaces it). */
  onMessage(handler: (message: M) => void): void;
  close(): void;
};

/** A typed channel over `open(name)`; without a broadcast port (no BroadcastChannel) it posts nowhere. */
export function openTabChannel<M extends { type: string }>(
  name: string,
  parse: (data: unknown) => M | undefined,
  open: OpenBroadcast = openBroadcastChannel,
): TabChannel<M> {
  const port = open(name);
  return {
    post: (message) => port?.postMessage(message),
    onMessage(handler) {
      if (!port) return;
      port.onmessage = (event) => {
        const message = parse(event.data);
        if (message) handler(message);
      };
    },
    close: () => port?.close(),
  };
}

const typed = (data: unknown): { type?: unknown; status?: unknown } =>
  typeof data === 'object' && data !== null ? (data as { type?: unknown; status?: unknown }) : {};

export function parseSyncTabMessage(data: unknown): SyncTabMessage | undefined {
  const message = typed(data);
  if (message.type === 'hello' || message.type === 'retry') return { type: message.type };
  if (message.type === 'status' && typeof message.status === 'object' && message.status !== null)
    return { type: 'status', status: message.status as SyncStatus };
  return undefined;
}

export function parseLeaderTabMessage(data: unknown): LeaderTabMessage | undefined {
  return typed(data).type === 'beat' ? { type: 'beat' } : undefined;
}
