import { openBroadcastChannel, type OpenBroadcast } from './tab-channel.ts';

/**
 * The browser as the sync engine sees it: the events that resume sync, whether the page is visible,
 * cross-tab messages, Web Locks and localStorage. The engine takes it as a parameter, so unit tests
 * drive it with stand-ins (a `focus` that fires when the test says, two "tabs" on one broadcast).
 */
export type BrowserPort = {
  /** navigator.onLine: the browser's own view of the network. */
  online(): boolean;
  /** Calls `handler` on the window's `online`, `offline` or `focus` event; returns the unsubscribe. */
  onWindow(type: 'online' | 'offline' | 'focus', handler: () => void): () => void;
  /** Calls `handler` when the page becomes visible again; returns the unsubscribe. */
  onVisible(handler: () => void): () => void;
  /** Whether Web Locks exist here (the tab election needs them; without, a tab syncs alone). */
  hasLocks(): boolean;
  openBroadcast: OpenBroadcast;
  /** localStorage, or undefined where it is blocked. */
  storage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;
};

/** The real browser (or nothing, outside one: no events, always online, no storage). */
export function browserPort(): BrowserPort {
  const hasWindow = typeof window !== 'undefined';
  return {
    online: () => (typeof navigator === 'undefined' ? true : navigator.onLine),
    onWindow(type, handler) {
      if (!hasWindow) return () => {};
      window.addEventListener(type, handler);
      return () => window.removeEventListener(type, handler);
    },
    onVisible(handler) {
      if (typeof document === 'undefined') return () => {};
      const onChange = () => {
        if (document.visibilityState === 'visible') handler();
      };
      document.addEventListener('visibilitychange', onChange);
      return () => document.removeEventListener('visibilitychange', onChange);
    },
    hasLocks: () => typeof navigator !== 'undefined' && Boolean(navigator.locks),
    openBroadcast: openBroadcastChannel,
    storage() {
      try {
        return hasWindow ? window.localStorage : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
