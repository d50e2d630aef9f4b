import type { BroadcastPort } from './tab-channel.ts';

/**
 * Broadcast channels in memory, for tests that play several tabs: a message reaches every other open
 * port of the same name (cloned, as a browser's structured clone would), never the sender.
 */
export function inMemoryBroadcast(): (name: string) => BroadcastPort {
  const ports = new Map<string, Set<BroadcastPort>>();
  return (name) => {
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
