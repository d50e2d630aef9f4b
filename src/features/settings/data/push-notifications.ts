import { getPushPublicKey, type PushUnsubscription } from '../../../domain/contracts/push.ts';
import { syncServerUrl } from '../../../lib/config.ts';
import { sessionRetryFetch } from '../../../lib/session/session.ts';

/**
 * Web Push on this device (a per-device setting: each browser has its own subscription).
 * - `unsupported`: no service worker or Push API here (or not a secure context);
 * - `blocked`: the browser's notification permission is denied (only the browser can undo that);
 * - `on` / `off`: this browser is or is not subscribed.
 */
export type PushState = 'unsupported' | 'blocked' | 'on' | 'off';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

async function registration(): Promise<ServiceWorkerRegistration> {
  return navigator.serviceWorker.ready;
}

export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  const reg = await navigator.serviceWorker.getRegistration();
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  return sub && Notification.permission === 'granted' ? 'on' : 'off';
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

async function ensureOk(res: Response): Promise<void> {
  if (res.ok) return;
  const body = (await res.json().catch(() => null)) as { message?: string } | null;
  throw new Error(body?.message ?? 'Failed to update settings. Please try again.');
}

/** Asks for permission, subscribes this browser with the server's VAPID key and registers it. */
export async function turnPushOn(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (!navigator.onLine) throw new Error('Turning notifications on needs a connection. Try again when you are online.');
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'blocked';
  if (permission !== 'granted') return 'off';
  const keyRes = await fetch(`${syncServerUrl()}/api/push/public-key`, { cache: 'no-store' });
  await ensureOk(keyRes);
  const { publicKey } = getPushPublicKey.response[200].parse(await keyRes.json());
  const reg = await registration();
  let sub = await reg.pushManager.getSubscription();
  // A subscription made for another key (the server's keys changed) cannot receive our pushes.
  const current = sub?.options.applicationServerKey;
  if (
    sub &&
    current &&
    btoa(String.fromCharCode(...new Uint8Array(current))) !== btoa(String.fromCharCode(...keyBytes(publicKey)))
  ) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
  await ensureOk(
    await sessionRetryFetch(`${syncServerUrl()}/api/push/subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sub.toJSON()),
    }),
  );
  return 'on';
}

/** Stops pushes to this browser: unsubscribes it and tells the server. */
export async function turnPushOff(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const reg = await navigator.serviceWorker.getRegistration();
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  if (!sub) return 'off';
  const endpoint = sub.endpoint;
  await sub.unsubscribe();
  // Even if this fails (offline), the browser's subscription is gone: the server drops it on its next push (410).
  await sessionRetryFetch(`${syncServerUrl()}/api/push/subscriptions`, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ endpoint } satisfies PushUnsubscription),
  }).catch(() => undefined);
  return 'off';
}
