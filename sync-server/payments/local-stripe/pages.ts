/**
 * The local Stripe's hosted pages: plain HTML forms a person (or Playwright) can complete. They say
 * on every page that they are the local stand-in, so nobody mistakes them for Stripe.
 */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function usd(cents: number): string {
  const dollars = Math.floor(Math.abs(cents) / 100).toLocaleString('en-US');
  return `${cents < 0 ? '-' : ''}$${dollars}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
}

/** The tab icon of the local Stripe's pages, inline (its own server has no /favicon.ico to ask for). */
const STRIPE_ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%23635bff'/%3E%3Cpath d='M17.5 12.6c0-1 .8-1.4 2.2-1.4 2 0 4.4.6 6.3 1.7V7.3A16.8 16.8 0 0 0 19.7 6c-5.2 0-8.6 2.7-8.6 7.2 0 7 9.6 5.9 9.6 8.9 0 1.2-1 1.5-2.4 1.5-2.1 0-4.8-.9-6.9-2v5.8c2.3 1 4.7 1.4 6.9 1.4 5.3 0 8.9-2.6 8.9-7.2 0-7.6-9.7-6.2-9.7-9z' fill='white'/%3E%3C/svg%3E";

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="${STRIPE_ICON}"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Local Stripe</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #f6f8fa; color: #1a1f36; }
  main { max-width: 28rem; margin: 2rem auto; background: #fff; padding: 1.5rem; border-radius: 12px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  .banner { background: #fff4d6; color: #5c4400; padding: .5rem 1rem; font-size: .85rem; text-align: center; }
  label { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
  input { width: 100%; box-sizing: border-box; padding: .6rem; font-size: 1rem; border: 1px solid #c4c9d4; border-radius: 6px; }
  button { margin-top: 1rem; width: 100%; padding: .75rem; font-size: 1rem; border: 0; border-radius: 6px; background: #635bff; color: #fff; cursor: pointer; }
  button.secondary { background: #e3e8ee; color: #1a1f36; }
  .error { color: #b3261e; background: #fde7e9; padding: .6rem; border-radius: 6px; }
  .ok { color: #0b6b3a; }
  table { width: 100%; border-collapse: collapse; } td { padding: .3rem 0; } td:last-child { text-align: right; }
  .total td { font-weight: 700; border-top: 1px solid #e3e8ee; padding-top: .5rem; }
  .hint { color: #5b6275; font-size: .85rem; }
  a { color: #635bff; }
</style></head>
<body><div class="banner" role="note">Local Stripe — a stand-in for development and tests. No real money moves.</div>
<main>${body}</main></body></html>`;
}

export type CheckoutLine = { name: string; amountCents: number; interval?: string };

export function checkoutPage(opts: {
  action: string;
  cancelUrl: string;
  merchant: string;
  lines: CheckoutLine[];
  trialDays?: number;
  email?: string;
  error?: string;
}): string {
  const total = opts.lines.reduce((sum, l) => sum + l.amountCents, 0);
  const rows = opts.lines
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.name)}</td><td>${usd(l.amountCents)}${l.interval ? ` / ${escapeHtml(l.interval)}` : ''}</td></tr>`,
    )
    .join('');
  const trial = opts.trialDays ? `<p class="ok">${opts.trialDays}-day free trial: nothing is charged today.</p>` : '';
  const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : '';
  return page(
    'Checkout',
    `<h1>Pay ${escapeHtml(opts.merchant)}</h1>
<table>${rows}<tr class="total"><td>${opts.trialDays ? 'Total after trial' : 'Total due'}</td><td>${usd(total)}</td></tr></table>
${trial}${error}
<form method="post" action="${escapeHtml(opts.action)}">
  <label for="email">Email</label><input id="email" name="email" type="email" value="${escapeHtml(opts.email ?? '')}" autocomplete="email">
  <label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required>
  <label for="exp">Expiry (MM / YY)</label><input id="exp" name="exp" placeholder="12 / 34" autocomplete="cc-exp">
  <label for="cvc">CVC</label><input id="cvc" name="cvc" placeholder="123" autocomplete="cc-csc">
  <button type="submit">${opts.trialDays ? 'Start trial' : `Pay ${usd(total)}`}</button>
</form>
<p class="hint">Test cards: 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined; 4000 0000 0000 0259 succeeds and is then disputed.</p>
<p><a href="${escapeHtml(opts.cancelUrl)}">← Back without paying</a></p>`,
  );
}

export function onboardingPage(opts: { action: string; email: string; error?: string }): string {
  const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : '';
  return page(
    'Set up payouts',
    `<h1>Set up payouts</h1>
<p>Pacta partners with Stripe for fast, secure payouts. Enter where your earnings should be sent.</p>${error}
<form method="post" action="${escapeHtml(opts.action)}">
  <label for="name">Legal name</label><input id="name" name="name" autocomplete="name" required>
  <label for="email">Email</label><input id="email" name="email" type="email" value="${escapeHtml(opts.email)}" required>
  <label for="routing">Routing number</label><input id="routing" name="routing" value="110000000" inputmode="numeric" required>
  <label for="account">Account number</label><input id="account" name="account" value="000123456789" inputmode="numeric" required>
  <button type="submit">Agree and submit</button>
</form>
<p class="hint">Test bank details are filled in; any name works.</p>`,
  );
}

export type PortalSubscription = {
  id: string;
  plan: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  periodEnd: number;
};

export function portalPage(opts: {
  action: string;
  returnUrl: string;
  subscriptions: PortalSubscription[];
  notice?: string;
}): string {
  const date = (s: number) =>
    new Date(s * 1000).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
  const items = opts.subscriptions.length
    ? opts.subscriptions
        .map(
          (s) => `<section aria-label="${escapeHtml(s.plan)}"><h2>${escapeHtml(s.plan)}</h2>
<p>Status: <strong>${escapeHtml(s.status)}</strong></p>
<p>${s.cancelAtPeriodEnd ? 'Cancels' : s.status === 'trialing' ? 'Trial ends' : 'Renews'} on ${date(s.periodEnd)}</p>
<form method="post" action="${escapeHtml(opts.action)}">
  <input type="hidden" name="subscription" value="${escapeHtml(s.id)}">
  <input type="hidden" name="do" value="${s.cancelAtPeriodEnd ? 'renew' : 'cancel'}">
  <button type="submit" class="${s.cancelAtPeriodEnd ? '' : 'secondary'}">${s.cancelAtPeriodEnd ? 'Renew plan' : 'Cancel plan'}</button>
</form></section>`,
        )
        .join('')
    : '<p>No active subscriptions.</p>';
  const notice = opts.notice ? `<p class="ok" role="status">${escapeHtml(opts.notice)}</p>` : '';
  return page(
    'Billing',
    `<h1>Manage your plan</h1>${notice}${items}<p><a href="${escapeHtml(opts.returnUrl)}">← Return to Pacta</a></p>`,
  );
}
