import { expect, test } from 'vitest';
import type { SyncStatus } from '../sync-status.ts';
import {
  openTabChannel,
  parseLeaderTabMessage,
  parseSyncTabMessage,
  type BroadcastPort,
  type SyncTabMessage,
} from './tab-channel.ts';

/** Broadcast channels in memory: a message reaches every other port of the same name, as in a browser. */
function broadcastBus() {
  const ports = new Map<string, Set<BroadcastPort>>();
  return (name: string): BroadcastPort => {
    const peers = ports.get(name) ?? new Set<BroadcastPort>();
    ports.set(name, peers);
    const port: BroadcastPort = {
      onmessage: null,
      postMessage(data) {
        for (const peer of peers)
          if (peer !== port) peer.onmessage?.(new MessageEvent('message', { data: structuredClone(data) }));
      },
      close: () => peers.delete(port),
    };
    peers.add(port);
    return port;
  };
}

test('tabs of one user hear each other’s typed messages; anything else on the channel is ignored', () => {
  const open = broadcastBus();
  const leader = openTabChannel('pacta-sync-status-u1', parseSyncTabMessage, open);
  const follower = openTabChannel('pacta-sync-status-u1', parseSyncTabMessage, open);
  const raw = open('pacta-sync-status-u1');
  const heard: SyncTabMessage[] = [];
  follower.onMessage((m) => heard.push(m));
  const status = { pendingPush: 2 } as unknown as SyncStatus;
  leader.post({ type: 'status', status });
  raw.postMessage({ type: 'status' });
  raw.postMessage({ type: 'reboot' });
  raw.postMessage('hello');
  leader.post({ type: 'retry' });
  expect(heard).toEqual([{ type: 'status', status }, { type: 'retry' }]);

  follower.close();
  leader.post({ type: 'hello' });
  expect(heard).toHaveLength(2);
});

test('without BroadcastChannel a tab channel posts nowhere and hears nothing', () => {
  const channel = openTabChannel('x', parseSyncTabMessage, () => undefined);
  expect(() => {
    channel.onMessage(() => {});
    channel.post({ type: 'hello' });
    channel.close();
  }).not.toThrow();
});

test('the leader’s beat is the only message of the leadership channel', () => {
  expect(parseLeaderTabMessage({ type: 'beat' })).toEqual({ type: 'beat' });
  expect(parseLeaderTabMessage({ type: 'hello' })).toBeUndefined();
  expect(parseLeaderTabMessage(null)).toBeUndefined();
});
