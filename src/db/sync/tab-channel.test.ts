import { expect, test } from 'vitest';
import type { SyncStatus } from '../sync-status.ts';
import { openTabChannel, parseLeaderTabMessage, parseSyncTabMessage, type SyncTabMessage } from './tab-channel.ts';
import { inMemoryBroadcast } from './in-memory-broadcast.ts';

test('tabs of one user hear each other’s typed messages; anything else on the channel is ignored', () => {
  const open = inMemoryBroadcast();
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
