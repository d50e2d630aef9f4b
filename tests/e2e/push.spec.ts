import { createConfirmedAccount } from './pages/auth-mailbox.ts';
import { seedDeals, signIn, userId, waitForSynced } from './pages/deals-page.ts';
import { ShellPage } from './pages/shell-page.ts';
import { expect, test } from './support/console-errors.ts';

// The service worker's Web Push side in real Chromium: a push message delivered to the worker (through
// the DevTools protocol, as the browser's push service would hand it over) shows a notification, and
// its click opens the conversation it is about.

test('a push shows the notification; clicking it opens the conversation', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const creator = await createConfirmedAccount(request, { role: 'creator', fullName: 'Pat Pusher' });
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: 'Nova Drinks' });
  const [deal] = await seedDeals(brand.email, ['Summer drinks']);
  await context.grantPermissions(['notifications'], { origin: baseURL });

  const cdp = await context.newCDPSession(page);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: list }) => {
    for (const r of list as { registrationId: string; scopeURL: string; isDeleted: boolean }[]) {
      if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
    }
  });
  await cdp.send('ServiceWorker.enable');

  await signIn(page, creator);
  await waitForSynced(page);
  await new ShellPage(page).waitForServiceWorker();
  // The conversation the push will be about.
  await page.goto(`/inbox/new?with=${await userId(brand.email)}&deal=${deal!.id}`);
  await expect(page).toHaveURL(/\/inbox\/[0-9a-f-]{36}$/);
  const conversationPath = new URL(page.url()).pathname;
  await page.goto('/dashboard');

  const payload = {
    title: 'New message from Nova Drinks',
    body: 'Can you post on Friday?',
    url: conversationPath,
    tag: `conversation:${conversationPath.split('/').pop()}`,
    notificationId: '00000000-0000-4000-8000-000000000001',
  };
  await expect.poll(() => registrations.get(`${baseURL}/`)).toBeTruthy();
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: `${baseURL}/`,
    registrationId: registrations.get(`${baseURL}/`)!,
    data: JSON.stringify(payload),
  });

  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          data: n.data as unknown,
        }));
      }),
    )
    .toEqual([
      {
        title: payload.title,
        body: payload.body,
        tag: payload.tag,
        data: { url: conversationPath, notificationId: payload.notificationId },
      },
    ]);

  // The click: the browser would dispatch 'notificationclick' on the worker; the DevTools protocol
  // cannot click an OS notification, so the same event goes to the worker's own handler from inside it.
  const [worker] = context.serviceWorkers();
  await worker!.evaluate(async () => {
    const scope = self as unknown as ServiceWorkerGlobalScope;
    const [notification] = await scope.registration.getNotifications();
    const click = new NotificationEvent('notificationclick', { notification: notification! });
    // A synthetic event cannot extend its lifetime; the handler's promise still runs to the end.
    Object.defineProperty(click, 'waitUntil', { value: () => undefined });
    scope.dispatchEvent(click);
  });
  await expect(page).toHaveURL(new RegExp(`${conversationPath}$`));
  await expect(page.getByRole('heading', { name: 'Nova Drinks' })).toBeVisible();
  // The notification closed itself on click.
  await expect
    .poll(() => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length))
    .toBe(0);
});
