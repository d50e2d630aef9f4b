import { z } from 'zod';

/**
 * Web Push: the routes a device subscribes with, and what the server pushes to it. Subscriptions
 * mirror pacta_private.push_subscriptions' checks, so a valid body is never refused by the database.
 */
export const getPushPublicKey = {
  summary: 'The VAPID public key browsers subscribe with',
  response: { 200: z.object({ publicKey: z.string() }) },
};

export const postPushSubscription = {
  summary: 'This device gets pushes for the signed-in user',
  body: z.object({
    endpoint: z.string().max(2048),
    keys: z.object({ p256dh: z.string().min(40).max(200), auth: z.string().min(10).max(100) }),
  }),
  response: { 201: z.object({ endpoint: z.string() }) },
};

export const deletePushSubscription = {
  summary: 'This device no longer gets pushes',
  body: z.object({ endpoint: z.string().max(2048) }),
};
export type PushUnsubscription = z.infer<typeof deletePushSubscription.body>;

/** What the service worker receives and shows for one notification. */
export const pushPayload = z.object({
  title: z.string(),
  body: z.string(),
  /** An app path (the service worker opens nothing else). */
  url: z.string(),
  /** One notification per conversation on the device: a newer one with the same tag replaces it. */
  tag: z.string(),
  notificationId: z.string(),
});
export type PushPayload = z.infer<typeof pushPayload>;
